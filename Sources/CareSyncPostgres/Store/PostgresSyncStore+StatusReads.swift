import CareSyncCore
import CareSyncStoreCore
import Foundation

extension PostgresSyncStore {
    /// The figures per day, source and type: the rows kept in `sample_days` when they are in `zone`, else counted from the
    /// time index `samples_span` (`SampleDayRows`), in one snapshot.
    public func sampleDays(patient: String, zone: TimeZone, from first: CalendarDay, through last: CalendarDay) throws -> [SampleDay] {
        try database.read { db in try SampleDayRows.read(db, patient: patient, zone: zone, from: first, through: last) }
    }

    /// The newest live samples of `type`: `samples_span` in descending start order, ties by uuid (compared bytewise,
    /// as its text orders).
    public func newestSamples(patient: String, type: SampleType, limit: Int) throws -> [Sample] {
        try database.read { db in
            try db.query("SELECT \(PostgresSampleRow.sampleColumns) FROM samples WHERE patient = $1 AND type = $2 ORDER BY start_ms DESC, uuid DESC LIMIT $3",
                         [.text(patient), .text(type.rawValue), .int64(Int64(max(0, limit)))]).map { try PostgresSampleRow.decodeSample($0) }
        }
    }
}
