import CareSyncCore
import CareSyncStoreCore
import Foundation

extension PostgresSyncStore {
    /// The figures per day, source and type of each patient: its rows kept in `sample_days` when they are in its zone,
    /// else counted from the time index `samples_span` (`SampleDayRows`), all in one snapshot.
    public func sampleDays(patients: [String: TimeZone], from first: CalendarDay, through last: CalendarDay) throws -> [String: [SampleDay]] {
        try database.read { db in try SampleDayRows.read(db, patients: patients, from: first, through: last) }
    }

    /// The newest live samples of `type` of each patient, in one snapshot: `samples_span` in descending start order, ties
    /// by uuid (compared bytewise, as its text orders).
    public func newestSamples(patients: [String], type: SampleType, limit: Int) throws -> [String: [Sample]] {
        try database.read { db in
            var newest: [String: [Sample]] = [:]
            for patient in patients {
                newest[patient] = try db.query("""
                    SELECT \(PostgresSampleRow.sampleColumns) FROM samples WHERE patient = $1 AND type = $2 ORDER BY start_ms DESC, uuid DESC LIMIT $3
                    """, [.text(patient), .text(type.rawValue), .int64(Int64(max(0, limit)))]).map { try PostgresSampleRow.decodeSample($0) }
            }
            return newest
        }
    }
}
