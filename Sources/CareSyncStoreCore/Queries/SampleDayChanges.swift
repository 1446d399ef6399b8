import CareSyncCore

/// The samples a write transaction added to and removed from each patient's live samples, kept by the writer until
/// it commits, for `SampleDayRows.record`.
public struct SampleDayChanges {
    /// One live sample as the figures see it.
    public struct Row: Sendable {
        /// Its source.
        public var source: String
        /// Its type.
        public var type: SampleType
        /// Its start and end, ms since 1970.
        public var start: Int64, end: Int64
        /// Its value.
        public var value: Double
    }

    /// Added, by patient.
    public private(set) var added: [String: [Row]] = [:]
    /// Removed (tombstoned), by patient.
    public private(set) var removed: [String: [Row]] = [:]

    /// None yet.
    public init() {}

    /// Whether the transaction changed no sample.
    public var isEmpty: Bool { added.isEmpty && removed.isEmpty }

    /// Notes a sample inserted for `patient`.
    public mutating func add(patient: String, source: String, type: SampleType, start: Int64, end: Int64, value: Double) {
        added[patient, default: []].append(Row(source: source, type: type, start: start, end: end, value: value))
    }

    /// Adds what `other` noted (a later write of the same transaction).
    public mutating func merge(_ other: SampleDayChanges) {
        for (patient, rows) in other.added { added[patient, default: []] += rows }
        for (patient, rows) in other.removed { removed[patient, default: []] += rows }
    }

    /// Notes a live sample of `patient` tombstoned.
    public mutating func remove(patient: String, _ sample: Sample) {
        removed[patient, default: []].append(Row(source: sample.source, type: sample.type, start: SyncRules.milliseconds(sample.start),
                                                  end: SyncRules.milliseconds(sample.end), value: sample.value))
    }
}
