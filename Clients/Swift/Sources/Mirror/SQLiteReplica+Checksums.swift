import Foundation
import CareSyncClient

/// The replica's own checksum figures, read with the anchor they belong to.
public struct ReplicaFigures: Sendable, Hashable {
    /// The anchor the replica holds, nil before its first page.
    public var anchor: String?
    /// The running figures per type.
    public var checksums: ReplicaChecksums
    /// Types whose rows were changed in place, so their figures say nothing (sorted).
    public var suspect: [String]
}

extension SQLiteReplica {
    /// The running figures and the anchor, read in one transaction.
    public func figures() throws -> ReplicaFigures {
        try locked {
            try database.transaction {
                var anchor: String?
                if case .text(let text)? = try database.execute("SELECT value FROM replica_state WHERE key = 'anchor'").first?.first {
                    anchor = text
                }
                var types: [String: ReplicaChecksums.Figures] = [:]
                var suspect: [String] = []
                for row in try database.execute("SELECT type, count, sum_high, sum_low, suspect FROM replica_checksums ORDER BY type") {
                    guard case .text(let type) = row[0], case .integer(let count) = row[1], case .integer(let high) = row[2],
                          case .integer(let low) = row[3], case .integer(let flag) = row[4] else { continue }
                    types[type] = .init(count: Int(count), sum: (UInt64(truncatingIfNeeded: high) &<< 32) &+ UInt64(truncatingIfNeeded: low))
                    if flag != 0 { suspect.append(type) }
                }
                return ReplicaFigures(anchor: anchor, checksums: ReplicaChecksums(types: types), suspect: suspect)
            }
        }
    }

    /// The types whose figures differ from the server's at the replica's anchor, suspect types included (sorted).
    /// Call it when the replica's last page had `hasMore` false (after ``catchUp(from:limit:onEvent:)``).
    public func verify(with client: CareSyncClient) async throws -> [String] {
        let held = try figures()
        guard let anchor = held.anchor else { return held.suspect }
        let differing = try await client.verify(patient: patient, anchor: anchor, against: held.checksums)
        return Array(Set(differing).union(held.suspect)).sorted()
    }

    /// Downloads `types` again and swaps them in; returns how many samples they hold now.
    ///
    /// The feed from no anchor, filtered to `types`, is staged page by page in `repair_samples` (a kill
    /// leaves only the staging table behind, emptied by the next repair). One transaction then replaces
    /// those types' rows with the staged ones and recomputes their figures from the rows. The types now
    /// stand at a later anchor than the rest; the feed read on from the replica's anchor replays the
    /// changes in between, which applying by uuid makes harmless, so catch up before verifying again.
    @discardableResult
    public func repair(types: [String], from client: CareSyncClient, limit: Int? = nil) async throws -> Int {
        guard !types.isEmpty else { return 0 }
        try locked { try database.transaction { try database.execute("DELETE FROM repair_samples") } }
        let staging = MemoryAnchorStore()
        for try await event in client.anchoredChanges(patient: patient, store: staging, filter: FeedFilter(types: types), limit: limit) {
            guard case .page(let samples, let deleted, _) = event else {
                try locked { try database.transaction { try database.execute("DELETE FROM repair_samples") } }
                continue
            }
            try locked {
                try database.transaction {
                    for object in deleted { try database.execute("DELETE FROM repair_samples WHERE uuid = ?", [.text(object.uuid.uuidString)]) }
                    for sample in samples { try upsert(sample, into: "repair_samples") }
                }
            }
        }
        return try locked {
            try database.transaction {
                let marks = Array(repeating: "?", count: types.count).joined(separator: ", ")
                let values = types.map { SQLiteDatabase.Value.text($0) }
                try database.execute("DELETE FROM samples WHERE type IN (\(marks))", values)
                // A staged sample of another type cannot be: the feed was filtered. Its uuid may still sit under a
                // type outside `types` if a row was corrupted in place; the staged row wins.
                try database.execute("DELETE FROM samples WHERE uuid IN (SELECT uuid FROM repair_samples)")
                try database.execute("INSERT INTO samples (\(ReplicaSchema.columns)) SELECT \(ReplicaSchema.columns) FROM repair_samples")
                try database.execute("DELETE FROM repair_samples")
                try ReplicaSchema.recomputeFigures(database, types: types)
                guard case .integer(let count)? = try database.execute("SELECT count(*) FROM samples WHERE type IN (\(marks))", values).first?.first
                else { return 0 }
                return Int(count)
            }
        }
    }
}
