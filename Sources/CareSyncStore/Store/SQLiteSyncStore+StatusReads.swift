import CareSyncCore
import CareSyncStoreCore
import Foundation

extension SQLiteSyncStore {
    /// The figures per day, source and type: the rows kept in `sample_days` when they are in `zone`, else counted from the
    /// covering time index `samples_span` (`SampleDayRows`), in one snapshot.
    public func sampleDays(patient: String, zone: TimeZone, from first: CalendarDay, through last: CalendarDay) throws -> [SampleDay] {
        try database.read { db in try SampleDayRows.read(db, patient: patient, zone: zone, from: first, through: last) }
    }

    /// The newest live samples of `type`: `samples_span` in descending start order, ties by uuid (its bytes order as
    /// its text does).
    public func newestSamples(patient: String, type: SampleType, limit: Int) throws -> [Sample] {
        try database.read { db in
            try db.fetchAll("SELECT \(SampleRow.sampleColumns) FROM samples WHERE patient = ? AND type = ? ORDER BY start_ms DESC, uuid DESC LIMIT ?",
                            [.text(patient), .text(type.rawValue), .integer(Int64(max(0, limit)))]) { try SampleRow.decodeSample($0) }
        }
    }
}
