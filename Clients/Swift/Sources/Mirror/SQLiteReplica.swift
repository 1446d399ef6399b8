import Foundation
import CareSyncClient

/// A local SQLite replica of one patient's feed, for clinic systems that read a database.
///
/// Table `samples` holds the live samples (tombstones applied as deletions); table `replica_state`
/// holds the patient and the feed anchor; table `replica_checksums` holds the running checksum figures
/// per type (see ``ReplicaSchema``). Each page is applied **in the same transaction as its anchor and its
/// figures**, so a kill at any moment leaves the replica at a page boundary with the matching anchor.
/// It is also the feed's ``AnchorStore``: the sequence's own save writes the anchor already stored.
public final class SQLiteReplica: AnchorStore, @unchecked Sendable {
    let database: SQLiteDatabase
    private let lock = NSLock()
    /// The patient this replica mirrors.
    public let patient: String

    /// Opens (creating) the replica at `path` for `patient`; a replica of another patient is refused.
    public init(path: String, patient: String) throws {
        database = try SQLiteDatabase(path: path)
        self.patient = patient
        // Opening a current replica writes nothing, so a reader never waits for a running mirror's write lock.
        if try ReplicaSchema.needsPreparing(database) { try database.transaction { try ReplicaSchema.prepare(database) } }
        let stored = try database.execute("SELECT value FROM replica_state WHERE key = 'patient'")
        if case .text(let other)? = stored.first?.first, other != patient {
            throw SQLiteError(code: 0, message: "the replica mirrors patient \(other), not \(patient)")
        }
        if stored.isEmpty {
            try database.execute("INSERT OR IGNORE INTO replica_state (key, value) VALUES ('patient', ?)", [.text(patient)])
        }
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
                    for sample in samples { try upsert(sample, into: "samples") }
                    try setAnchor(anchor)
                case .reset:
                    try database.execute("DELETE FROM samples")
                    try database.execute("DELETE FROM replica_checksums")
                    try setAnchor(nil)
                }
            }
        }
    }

    /// How many samples the replica holds.
    public func count() throws -> Int {
        try locked {
            guard case .integer(let n)? = try database.execute("SELECT count(*) FROM samples").first?.first else { return 0 }
            return Int(n)
        }
    }

    /// Every sample held, by uuid.
    public func samples() throws -> [UUID: Sample] {
        try locked {
            let rows = try database.execute("SELECT \(ReplicaSchema.columns) FROM samples")
            var result: [UUID: Sample] = [:]
            for row in rows {
                func text(_ i: Int) -> String? { if case .text(let s) = row[i] { return s }; return nil }
                func real(_ i: Int) -> Double { if case .real(let d) = row[i] { return d }; if case .integer(let n) = row[i] { return Double(n) }; return 0 }
                func int(_ i: Int) -> Int? { if case .integer(let n) = row[i] { return Int(n) }; return nil }
                guard let uuid = text(0).flatMap(UUID.init(uuidString:)), let start = text(4).flatMap(Instant.parse),
                      let end = text(5).flatMap(Instant.parse) else { continue }
                let metadata = try JSONDecoder().decode([String: MetadataValue].self, from: Data((text(9) ?? "{}").utf8))
                let components = try text(11).map { try JSONDecoder().decode([String: Double].self, from: Data($0.utf8)) }
                let units = try text(12).map { try JSONDecoder().decode([String: String].self, from: Data($0.utf8)) }
                result[uuid] = Sample(uuid: uuid, type: text(1) ?? "", value: real(2), components: components, componentUnits: units,
                                      unit: text(3),
                                      start: start, end: end,
                                      syncIdentifier: text(6), syncVersion: int(7), source: text(8) ?? "", metadata: metadata)
            }
            return result
        }
    }

    /// Stores `sample` in `table` (`samples` or the repair's staging table), replacing a row with its uuid.
    /// A delete then an insert, never an update in place: the triggers take the old row's digest away and
    /// add the new one's.
    func upsert(_ sample: Sample, into table: String) throws {
        let metadata = sample.metadata.isEmpty ? "{}" : String(decoding: try JSONEncoder.careSync().encode(sample.metadata), as: UTF8.self)
        let digest = ReplicaChecksums.digest(uuid: sample.uuid, syncVersion: sample.syncVersion)
        try database.execute("DELETE FROM \(table) WHERE uuid = ?", [.text(sample.uuid.uuidString)])
        let components = try sample.components.map { String(decoding: try JSONEncoder.careSync().encode($0), as: UTF8.self) }
        let units = try sample.componentUnits.map { String(decoding: try JSONEncoder.careSync().encode($0), as: UTF8.self) }
        try database.execute("INSERT INTO \(table) (\(ReplicaSchema.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                             [.text(sample.uuid.uuidString), .text(sample.type), .real(sample.value), sample.unit.map { .text($0) } ?? .null,
                              .text(Instant.format(sample.start)), .text(Instant.format(sample.end)),
                              sample.syncIdentifier.map { .text($0) } ?? .null, sample.syncVersion.map { .integer(Int64($0)) } ?? .null,
                              .text(sample.source), .text(metadata), .integer(Int64(bitPattern: digest)), components.map { .text($0) } ?? .null,
                              units.map { .text($0) } ?? .null])
    }

    func setAnchor(_ anchor: String?) throws {
        try database.execute("INSERT OR REPLACE INTO replica_state (key, value) VALUES ('anchor', ?)", [anchor.map { .text($0) } ?? .null])
    }

    @discardableResult
    func locked<T>(_ body: () throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
