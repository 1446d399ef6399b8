import CareSyncCore
import CareSyncStoreCore
import Foundation

extension SQLiteSyncStore {
    /// The figures per day, source and type of each patient: its rows kept in `sample_days` when they are in its zone,
    /// else counted from the covering time index `samples_span` (`SampleDayRows`), all in one snapshot.
    public func sampleDays(patients: [String: TimeZone], from first: CalendarDay, through last: CalendarDay) throws -> [String: [SampleDay]] {
        try database.read { db in try SampleDayRows.read(db, patients: patients, from: first, through: last) }
    }

    /// The newest live samples of `type` of each patient, in one snapshot: `samples_span` in descending start order, ties
    /// by uuid (its bytes order as its text does).
    public func newestSamples(patients: [String], type: SampleType, limit: Int) throws -> [String: [Sample]] {
        try database.read { db in
            var newest: [String: [Sample]] = [:]
            for patient in patients {
                newest[patient] = try db.fetchAll("""
                    SELECT \(SampleRow.sampleColumns) FROM samples WHERE patient = ? AND type = ? ORDER BY start_ms DESC, uuid DESC LIMIT ?
                    """, [.text(patient), .text(type.rawValue), .integer(Int64(max(0, limit)))]) { try SampleRow.decodeSample($0) }
            }
            return newest
        }
    }
}
