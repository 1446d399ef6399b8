/// The length of one statistics bucket, as the `intervalComponents` of `HKStatisticsCollectionQuery`.
///
/// `hour` is 3,600 s of absolute time; `day`, `week` and `month` follow the wall clock of the
/// query's time zone, so a day across a DST change lasts 23 or 25 hours.
public enum StatisticsInterval: String, CaseIterable, Hashable, Sendable, Codable {
    case hour, day, week, month

    /// The shortest a bucket of this interval can be, in seconds (a DST day loses an hour).
    var minimumSeconds: Double {
        switch self {
        case .hour: 3_600
        case .day: 23 * 3_600
        case .week: 7 * 86_400 - 3_600
        case .month: 28 * 86_400 - 3_600
        }
    }

    /// The usual length of a bucket, in seconds; a first guess when looking for a bucket.
    var nominalSeconds: Double {
        switch self {
        case .hour: 3_600
        case .day: 86_400
        case .week: 7 * 86_400
        case .month: 2_629_746
        }
    }
}
