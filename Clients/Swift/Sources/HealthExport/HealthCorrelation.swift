import Foundation

/// One `<Correlation>` of an Apple Health export (blood pressure, food) with the records nested in it.
public struct HealthCorrelation: Sendable, Hashable {
    /// `HKCorrelationTypeIdentifierBloodPressure` or `HKCorrelationTypeIdentifierFood`.
    public var type: String
    /// The app or device that recorded it.
    public var sourceName: String
    /// `2020-06-16 08:00:00 -0700`.
    public var startDate: String
    /// `2020-06-16 08:00:00 -0700`.
    public var endDate: String
    /// The `device` attribute, as written, if any.
    public var device: String?
    /// The correlation's own `<MetadataEntry>` children (`HKFoodType`, `HKMetadataKeyMeal` …).
    public var metadata: [String: String]
    /// The `<Record>`s nested in it, in document order.
    public var records: [HealthRecord]

    /// A correlation from its fields.
    public init(type: String, sourceName: String, startDate: String, endDate: String, device: String? = nil,
                metadata: [String: String] = [:], records: [HealthRecord] = []) {
        self.type = type
        self.sourceName = sourceName
        self.startDate = startDate
        self.endDate = endDate
        self.device = device
        self.metadata = metadata
        self.records = records
    }
}

/// What the parser hands out: a top-level record or a whole correlation.
public enum HealthItem: Sendable, Hashable {
    case record(HealthRecord)
    case correlation(HealthCorrelation)
}
