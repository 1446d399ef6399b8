import Foundation

/// What to compute in each bucket, as `HKStatisticsOptions`.
///
/// Cumulative types take `cumulativeSum`; discrete types take any of `discreteAverage`,
/// `discreteMin`, `discreteMax`, `mostRecent`; category types take `durationByValue` (CareSync's own:
/// HealthKit has no statistics of categories). `separateBySource` adds per-source figures to any.
public struct StatisticsOptions: OptionSet, Hashable, Sendable {
    /// The option bits.
    public let rawValue: Int
    /// Options from their bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The sum of a cumulative type, each sample prorated by its overlap with the bucket.
    public static let cumulativeSum = StatisticsOptions(rawValue: 1 << 0)
    /// The mean of the discrete samples that start in the bucket: arithmetic, over time for temporally
    /// weighted types, as an equivalent continuous level for sound levels.
    public static let discreteAverage = StatisticsOptions(rawValue: 1 << 1)
    /// The least discrete value starting in the bucket.
    public static let discreteMin = StatisticsOptions(rawValue: 1 << 2)
    /// The greatest discrete value starting in the bucket.
    public static let discreteMax = StatisticsOptions(rawValue: 1 << 3)
    /// The value of the discrete sample with the latest start in the bucket.
    public static let mostRecent = StatisticsOptions(rawValue: 1 << 4)
    /// Figures per source in each bucket, besides the bucket's own.
    public static let separateBySource = StatisticsOptions(rawValue: 1 << 5)
    /// For a category type, the time its samples spend in each value within the bucket (sleep stages).
    public static let durationByValue = StatisticsOptions(rawValue: 1 << 6)

    /// The options valid for discrete types.
    public static let discreteOptions: StatisticsOptions = [.discreteAverage, .discreteMin, .discreteMax, .mostRecent]

    /// The options by their api.md names.
    public static let byName: [(name: String, option: StatisticsOptions)] = [
        ("cumulativeSum", .cumulativeSum), ("discreteAverage", .discreteAverage), ("discreteMin", .discreteMin),
        ("discreteMax", .discreteMax), ("mostRecent", .mostRecent), ("separateBySource", .separateBySource),
        ("durationByValue", .durationByValue),
    ]

    /// The option with this api.md name, or nil.
    public static func named(_ name: String) -> StatisticsOptions? {
        byName.first { $0.name == name }?.option
    }

    /// The api.md names of the options in this set.
    public var names: [String] { Self.byName.filter { contains($0.option) }.map(\.name) }
}

extension StatisticsOptions {
    /// Parses api.md's comma list (`cumulativeSum,separateBySource`); an unknown name is a
    /// `SyncError.validationFailed` on field `options`.
    public static func parse(_ list: String) throws -> StatisticsOptions {
        var options: StatisticsOptions = []
        for name in list.split(separator: ",", omittingEmptySubsequences: true).map({ $0.trimmingCharacters(in: .whitespaces) }) {
            guard let option = named(name) else {
                throw SyncError.validationFailed([ValidationProblem(
                    index: nil, field: "options",
                    message: "unknown option \(name); use " + byName.map(\.name).joined(separator: ", "))])
            }
            options.insert(option)
        }
        return options
    }
}
