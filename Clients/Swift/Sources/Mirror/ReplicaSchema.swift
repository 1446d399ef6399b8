import Foundation
import CareSyncClient

/// The replica's tables and the triggers that keep its checksum figures.
///
/// `samples.digest` is the sample's `fnv1a64-sum` digest (``ReplicaChecksums/digest(uuid:syncVersion:)``,
/// as a signed 64-bit integer), written with the row. Triggers keep `replica_checksums` (per type: `count`
/// and the digests' high and low 32-bit halves summed apart, so SQLite's 64-bit integers never overflow)
/// in the transaction of whatever statement inserts or deletes a row, the mirror's or anyone else's. A row
/// changed in place (uuid, type, sync version or digest; the mirror never does that) marks its type
/// `suspect`: its figures no longer say what the rows hold, and the next verification repairs the type.
enum ReplicaSchema {
    /// The schema version in `PRAGMA user_version`: 0 before checksums, 1 with them, 2 with blood pressure
    /// pairs' `components`, 3 with foods' `component_units`.
    static let version: Int64 = 3

    /// The sample columns of `samples` and `repair_samples`, in order.
    static let columns = #"uuid, type, value, unit, start, "end", sync_identifier, sync_version, source, metadata, digest, components, component_units"#

    /// Whether ``prepare(_:)`` has work to do (a read: `PRAGMA user_version`).
    static func needsPreparing(_ database: SQLiteDatabase) throws -> Bool {
        guard case .integer(let current)? = try database.execute("PRAGMA user_version").first?.first else { return true }
        return current < version
    }

    /// Creates what is missing, in the caller's transaction. A replica from before checksums gets its digests
    /// and figures computed from its rows; one from before `components` gets its blood pressure marked suspect
    /// (its pairs lack their diastolic), so the next verification downloads that type again.
    static func prepare(_ database: SQLiteDatabase) throws {
        try database.execute("CREATE TABLE IF NOT EXISTS replica_state (key TEXT PRIMARY KEY, value TEXT)")
        let hadComponents = try createSampleTable(database, "samples")
        _ = try createSampleTable(database, "repair_samples")
        for row in try database.execute("SELECT uuid, sync_version FROM samples WHERE digest IS NULL") {
            guard case .text(let text) = row[0], let uuid = UUID(uuidString: text) else { continue }
            var syncVersion: Int?
            if case .integer(let n) = row[1] { syncVersion = Int(n) }
            let digest = ReplicaChecksums.digest(uuid: uuid, syncVersion: syncVersion)
            try database.execute("UPDATE samples SET digest = ? WHERE uuid = ?", [.integer(Int64(bitPattern: digest)), .text(text)])
        }
        try database.execute("""
            CREATE TABLE IF NOT EXISTS replica_checksums (
                type TEXT PRIMARY KEY, count INTEGER NOT NULL, sum_high INTEGER NOT NULL, sum_low INTEGER NOT NULL,
                suspect INTEGER NOT NULL DEFAULT 0)
            """)
        try database.execute("""
            CREATE TRIGGER IF NOT EXISTS samples_checksum_insert AFTER INSERT ON samples BEGIN
                INSERT INTO replica_checksums (type, count, sum_high, sum_low)
                VALUES (NEW.type, 1, (coalesce(NEW.digest, 0) >> 32) & 4294967295, coalesce(NEW.digest, 0) & 4294967295)
                ON CONFLICT (type) DO UPDATE SET count = count + 1, sum_high = sum_high + excluded.sum_high,
                                                 sum_low = sum_low + excluded.sum_low;
            END
            """)
        try database.execute("""
            CREATE TRIGGER IF NOT EXISTS samples_checksum_delete AFTER DELETE ON samples BEGIN
                UPDATE replica_checksums SET count = count - 1,
                    sum_high = sum_high - ((coalesce(OLD.digest, 0) >> 32) & 4294967295),
                    sum_low = sum_low - (coalesce(OLD.digest, 0) & 4294967295)
                WHERE type = OLD.type;
            END
            """)
        try database.execute("""
            CREATE TRIGGER IF NOT EXISTS samples_checksum_update AFTER UPDATE OF uuid, type, sync_version, digest ON samples
            WHEN OLD.uuid IS NOT NEW.uuid OR OLD.type IS NOT NEW.type OR OLD.sync_version IS NOT NEW.sync_version
                 OR OLD.digest IS NOT NEW.digest
            BEGIN
                INSERT INTO replica_checksums (type, count, sum_high, sum_low, suspect) VALUES (OLD.type, 0, 0, 0, 1)
                ON CONFLICT (type) DO UPDATE SET suspect = 1;
                INSERT INTO replica_checksums (type, count, sum_high, sum_low, suspect) VALUES (NEW.type, 0, 0, 0, 1)
                ON CONFLICT (type) DO UPDATE SET suspect = 1;
            END
            """)
        try recomputeFigures(database, types: nil)
        if !hadComponents { try database.execute("UPDATE replica_checksums SET suspect = 1 WHERE type = 'bloodPressure'") }
        try database.execute("PRAGMA user_version = \(version)")
    }

    /// Creates `table` with every sample column, or adds the columns an older replica lacks; returns
    /// whether the table already had `components`.
    private static func createSampleTable(_ database: SQLiteDatabase, _ table: String) throws -> Bool {
        try database.execute("""
            CREATE TABLE IF NOT EXISTS \(table) (
                uuid TEXT PRIMARY KEY, type TEXT NOT NULL, value REAL NOT NULL, unit TEXT,
                start TEXT NOT NULL, "end" TEXT NOT NULL, sync_identifier TEXT, sync_version INTEGER,
                source TEXT NOT NULL, metadata TEXT NOT NULL, digest INTEGER, components TEXT, component_units TEXT)
            """)
        let present = try database.execute("PRAGMA table_info(\(table))").compactMap { row -> String? in
            if case .text(let name) = row[1] { return name }
            return nil
        }
        if !present.contains("digest") { try database.execute("ALTER TABLE \(table) ADD COLUMN digest INTEGER") }
        if !present.contains("components") { try database.execute("ALTER TABLE \(table) ADD COLUMN components TEXT") }
        // No replica before 3 holds a food (the server had none), so nothing is suspect for want of it.
        if !present.contains("component_units") { try database.execute("ALTER TABLE \(table) ADD COLUMN component_units TEXT") }
        return present.contains("components")
    }

    /// Sets the figures of `types` (nil: every type) from the rows, clearing `suspect`.
    static func recomputeFigures(_ database: SQLiteDatabase, types: [String]?) throws {
        let scope = types.map { " WHERE type IN (\(Array(repeating: "?", count: $0.count).joined(separator: ", ")))" } ?? ""
        let values = (types ?? []).map { SQLiteDatabase.Value.text($0) }
        try database.execute("DELETE FROM replica_checksums" + scope, values)
        try database.execute("""
            INSERT INTO replica_checksums (type, count, sum_high, sum_low)
            SELECT type, count(*), sum((coalesce(digest, 0) >> 32) & 4294967295), sum(coalesce(digest, 0) & 4294967295)
            FROM samples\(scope) GROUP BY type
            """, values)
    }
}
