import Foundation

/// One sample reduced to what statistics need: 32 bytes, no references.
public struct StatisticsRow: Hashable, Sendable {
    /// Start, ms since 1970.
    public var start: Int64
    /// End, ms since 1970; `end >= start`.
    public var end: Int64
    /// The value in the type's canonical unit.
    public var value: Double
    /// Index into `StatisticsInput.sources`.
    public var source: Int32
    /// Whether metadata said `wasUserEntered == true`.
    public var userEntered: Bool

    /// A row; times in ms since 1970, value in the canonical unit.
    public init(start: Int64, end: Int64, value: Double, source: Int32, userEntered: Bool = false) {
        self.start = start; self.end = end; self.value = value; self.source = source; self.userEntered = userEntered
    }
}

/// The samples of one statistics run: compact rows (best sorted by start) and the source names they index.
///
/// The store streams rows in here straight from SQL; tests and the model can append `Sample`s.
public struct StatisticsInput: Sendable {
    /// The rows, in the order appended.
    public private(set) var rows: [StatisticsRow] = []
    /// Source names; a row's `source` indexes this.
    public private(set) var sources: [String] = []
    private var sourceIndexes: [String: Int32] = [:]

    /// An empty input with room for `capacity` rows.
    public init(capacity: Int = 0) { rows.reserveCapacity(capacity) }

    /// The index of source `name`, registering it on first use.
    public mutating func sourceIndex(_ name: String) -> Int32 {
        if let index = sourceIndexes[name] { return index }
        let index = Int32(sources.count)
        sources.append(name)
        sourceIndexes[name] = index
        return index
    }

    /// Appends one row; `source` must come from `sourceIndex(_:)`.
    public mutating func append(_ row: StatisticsRow) {
        precondition(row.source >= 0 && Int(row.source) < sources.count, "unregistered source index")
        rows.append(row)
    }

    /// Appends what a stored sample gives for `type` (`Sample.value(for:)`: its own canonical value, or a
    /// correlation's component); nothing when it gives none.
    public mutating func append(_ sample: Sample, for type: SampleType) {
        guard let value = sample.value(for: type) else { return }
        let userEntered = sample.metadata["wasUserEntered"] == .bool(true)
        append(StatisticsRow(start: SyncRules.milliseconds(sample.start), end: SyncRules.milliseconds(sample.end),
                             value: value, source: sourceIndex(sample.source), userEntered: userEntered))
    }
}
