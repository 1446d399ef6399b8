import CareSyncCore
import Foundation

/// FHIR bulk export records in a database of either dialect (SQLite's migration 0029, PostgreSQL's 0022), through the
/// shared statements (`BulkExportRows`): every write in one transaction, so a runner's update never revives a
/// cancelled export.
public final class DatabaseBulkExportStore<Database: QueryDatabase>: BulkExportStore {
    let database: Database
    private typealias Rows = BulkExportRows<Database.Connection>

    /// A store over an open, migrated database.
    public init(database: Database) { self.database = database }

    public func insertExport(_ record: BulkExportRecord, patients: [String]) throws {
        try database.write { db in try Rows.insert(record, patients: patients, on: db) }
    }

    public func export(id: String) throws -> BulkExportRecord? {
        try database.read { db in try Rows.record(id: id, on: db) }
    }

    public func exportPatients(id: String) throws -> [String] {
        try database.read { db in try Rows.patients(of: id, on: db) }
    }

    public func updateExport(_ record: BulkExportRecord) throws -> Bool {
        try database.write { db in try Rows.update(record, on: db) }
    }

    public func beatExports(_ ids: [String], at now: Date) throws {
        try database.write { db in for id in ids { try Rows.beat(id, at: now, on: db) } }
    }

    public func failLostExports(beatenBefore: Date, outcome: [UInt8], expiresAt: Date, at now: Date) throws -> [String] {
        try database.write { db in try Rows.failLost(beatenBefore: beatenBefore, outcome: outcome, expiresAt: expiresAt, at: now, on: db) }
    }

    public func deleteExport(id: String) throws -> Bool {
        try database.write { db in try Rows.delete(id: id, on: db) }
    }

    public func deleteExpiredExports(at now: Date) throws -> [String] {
        try database.write { db in try Rows.deleteExpired(at: now, on: db) }
    }

    public func exportIDs() throws -> Set<String> {
        try database.read { db in try Rows.ids(on: db) }
    }
}
