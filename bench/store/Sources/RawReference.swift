import CareSyncCore
import CareSyncStore
import Foundation

/// The physical reference: the same rows into the same schema and indexes, one prepared INSERT, one transaction.
struct RawReference {
    let database: Database

    init(path: String, migrations: String) throws {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        database = try Database(path: path)
        try Migrator(directory: URL(fileURLWithPath: migrations)).migrate(database)
    }

    /// Inserts `count` sample rows; returns the seconds taken (row building included, as in the store).
    func insert(count: Int, inputs: BenchInputs) throws -> Double {
        let start = Clock.now
        try database.write { db in
            let statement = try db.prepare("""
                INSERT INTO samples (seq, patient, uuid, type, value, start_ms, end_ms, sync_id, sync_version, source, metadata)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)
                """)
            for n in 0..<count {
                let sample = inputs.sample(n)
                try statement.bind(Int64(n + 1), at: 1)
                try statement.bind(BenchInputs.patient, at: 2)
                try statement.bind(TimeOrderedUUID.make(), at: 3)  // the uuids the store assigns
                try statement.bind(sample.type.rawValue, at: 4)
                try statement.bind(sample.value, at: 5)
                try statement.bind(SyncRules.milliseconds(sample.start), at: 6)
                try statement.bind(SyncRules.milliseconds(sample.end), at: 7)
                try statement.bind(sample.syncIdentifier, at: 8)
                try statement.bind(sample.syncVersion, at: 9)
                try statement.bind(BenchInputs.source, at: 10)
                try statement.execute()
            }
        }
        return Clock.since(start)
    }
}

/// Grows a store with bulk INSERTs (samples and change log in one transaction per million) for the big paging run.
enum BulkLoader {
    static func grow(path: String, to total: Int, inputs: BenchInputs) throws {
        let database = try Database(path: path)
        var current = try database.read { db in try db.scalarInt64("SELECT count(*) FROM samples") ?? 0 }
        while current < total {
            let end = min(Int64(total), current + 1_000_000)
            try database.write { db in
                let log = try db.prepare("INSERT INTO change_log (patient, kind, uuid) VALUES (?, 0, ?)")
                let row = try db.prepare("""
                    INSERT INTO samples (seq, patient, uuid, type, value, start_ms, end_ms, sync_id, sync_version, source, metadata)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)
                    """)
                for n in Int(current)..<Int(end) {
                    let sample = inputs.sample(n)
                    let uuid = TimeOrderedUUID.make()
                    try log.bind(BenchInputs.patient, at: 1)
                    try log.bind(uuid, at: 2)
                    try log.execute()
                    try row.bind(db.lastInsertRowID, at: 1)
                    try row.bind(BenchInputs.patient, at: 2)
                    try row.bind(uuid, at: 3)
                    try row.bind(sample.type.rawValue, at: 4)
                    try row.bind(sample.value, at: 5)
                    try row.bind(SyncRules.milliseconds(sample.start), at: 6)
                    try row.bind(SyncRules.milliseconds(sample.end), at: 7)
                    try row.bind(sample.syncIdentifier, at: 8)
                    try row.bind(sample.syncVersion, at: 9)
                    try row.bind(BenchInputs.source, at: 10)
                    try row.execute()
                }
            }
            current = end
        }
    }
}
