import Foundation
import CareSyncClient

/// A local SQLite replica of one patient's feed, for clinic systems that read a database.
///
/// Table `samples` holds the live samples (tombstones applied as deletions); table `replica_state`
/// holds the patient and the feed anchor. Each page is applied **in the same transaction as its
/// anchor**, so a kill at any moment leaves the replica at a page boundary with the matching anchor.
/// It is also the feed's ``AnchorStore``: the sequence's own save writes the anchor already stored.
public final class SQLiteReplica: AnchorStore, @unchecked Sendable {
    private let database: SQLiteDatabase
    private let lock = NSLock()
    /// The patient this replica mirrors.
    public let patient: String

    /// Opens (creating) the replica at `path` for `patient`; a replica of another patient is refused.
    public init(path: String, patient: String) throws {
        database = try SQLiteDatabase(path: path)
        self.patient = patient
        try database.execute("""
            CREATE TABLE IF NOT EXISTS samples (
                uuid TEXT PRIMARY KEY, type TEXT NOT NULL, value REAL NOT NULL, unit TEXT,
                start TEXT NOT NULL, "end" TEXT NOT NULL, sync_identifier TEXT, sync_version INTEGER,
                source TEXT NOT NULL, metadata TEXT NOT NULL)
            """)
        try database.execute("CREATE TABLE IF NOT EXISTS replica_state (key TEXT PRIMARY KEY, value TEXT)")
        let stored = try database.execute("SELECT value FROM replica_state WHERE key = 'patient'")
        if case .text(let other)? = stored.first?.first, other != patient {
            throw SQLiteError(code: 0, message: "the replica mirrors patient \(other), not \(patient)")
        }
        try database.execute("INSERT OR IGNORE INTO replica_state (key, value) VALUES ('patient', ?)", [.text(patient)])
    }

    public func load() async throws -> String? {
        try locked {
            guard case .text(let anchor)? = try database.execute("SELECT value FROM replica_state WHERE key = 'anchor'").first?.first
            else { return nil }
            return anchor
        }
    }

    public func save(_ anchor: String?) async throws {
        try locked { try database.transaction { try setAnchor(anchor) } }
    }

    /// Applies one feed event with its anchor in one transaction.
    public func apply(_ event: AnchoredChanges.Event) throws {
        try locked {
            try database.transaction {
                switch event {
                case .page(let samples, let deleted, let anchor):
                    for object in deleted { try database.execute("DELETE FROM samples WHERE uuid = ?", [.text(object.uuid.uuidString)]) }
                    for sample in samples { try upsert(sample) }
                    try setAnchor(anchor)
                case .reset:
                    try database.execute("DELETE FROM samples")
                    try setAnchor(nil)
                }
            }
        }
    }

    /// Every sample held, by uuid.
    public func samples() throws -> [UUID: Sample] {
        try locked {
            let rows = try database.execute("""
                SELECT uuid, type, value, unit, start, "end", sync_identifier, sync_version, source, metadata FROM samples
                """)
            var result: [UUID: Sample] = [:]
            for row in rows {
                func text(_ i: Int) -> String? { if case .text(let s) = row[i] { return s }; return nil }
                func real(_ i: Int) -> Double { if case .real(let d) = row[i] { return d }; if case .integer(let n) = row[i] { return Double(n) }; return 0 }
                func int(_ i: Int) -> Int? { if case .integer(let n) = row[i] { return Int(n) }; return nil }
                guard let uuid = text(0).flatMap(UUID.init(uuidString:)), let start = text(4).flatMap(Instant.parse),
                      let end = text(5).flatMap(Instant.parse) else { continue }
                let metadata = try JSONDecoder().decode([String: MetadataValue].self, from: Data((text(9) ?? "{}").utf8))
                result[uuid] = Sample(uuid: uuid, type: text(1) ?? "", value: real(2), unit: text(3), start: start, end: end,
                                      syncIdentifier: text(6), syncVersion: int(7), source: text(8) ?? "", metadata: metadata)
            }
            return result
        }
    }

    private func upsert(_ sample: Sample) throws {
        let metadata = String(decoding: try JSONEncoder.careSync().encode(sample.metadata), as: UTF8.self)
        try database.execute("""
            INSERT OR REPLACE INTO samples (uuid, type, value, unit, start, "end", sync_identifier, sync_version, source, metadata)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [.text(sample.uuid.uuidString), .text(sample.type), .real(sample.value), sample.unit.map { .text($0) } ?? .null,
                  .text(Instant.format(sample.start)), .text(Instant.format(sample.end)),
                  sample.syncIdentifier.map { .text($0) } ?? .null, sample.syncVersion.map { .integer(Int64($0)) } ?? .null,
                  .text(sample.source), .text(metadata)])
    }

    private func setAnchor(_ anchor: String?) throws {
        try database.execute("INSERT OR REPLACE INTO replica_state (key, value) VALUES ('anchor', ?)", [anchor.map { .text($0) } ?? .null])
    }

    private func locked<T>(_ body: () throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}

extension SQLiteReplica {
    /// Mirrors `patient`'s feed into this replica until the head (or forever with `wait`), page by page.
    public func mirror(from client: CareSyncClient, wait: Int? = nil, limit: Int? = nil,
                       onEvent: (AnchoredChanges.Event) -> Void = { _ in }) async throws {
        for try await event in client.anchoredChanges(patient: patient, store: self, limit: limit, wait: wait) {
            try apply(event)
            onEvent(event)
        }
    }
}
