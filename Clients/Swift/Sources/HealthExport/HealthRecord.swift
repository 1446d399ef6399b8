import Foundation

/// One `<Record>` of an Apple Health export, as written (attribute strings and metadata entries).
public struct HealthRecord: Sendable, Hashable {
    /// `HKQuantityTypeIdentifierStepCount`, `HKCategoryTypeIdentifierSleepAnalysis` …
    public var type: String
    /// The app or device that recorded it.
    public var sourceName: String
    /// The HealthKit unit string (absent for category records).
    public var unit: String?
    /// `2020-06-16 10:00:00 -0700`.
    public var startDate: String
    /// `2020-06-16 11:00:00 -0700`.
    public var endDate: String
    /// A number, or a category value name (`HKCategoryValueSleepAnalysisAsleepCore`).
    public var value: String?
    /// The `device` attribute, as written (`<<HKDevice: 0x…>, name:Apple Watch, …>`), if any.
    public var device: String?
    /// `<MetadataEntry key value>` children.
    public var metadata: [String: String]

    /// A record from its fields.
    public init(type: String, sourceName: String, unit: String?, startDate: String, endDate: String,
                value: String?, device: String? = nil, metadata: [String: String] = [:]) {
        self.type = type
        self.sourceName = sourceName
        self.unit = unit
        self.startDate = startDate
        self.endDate = endDate
        self.value = value
        self.device = device
        self.metadata = metadata
    }
}
