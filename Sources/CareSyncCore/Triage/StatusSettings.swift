import Foundation

/// How a patient's status is computed: when a device counts as silent and how many weeks gaps are looked for in.
public struct StatusSettings: Hashable, Sendable {
    /// A device with no sample received for longer than this is silent.
    public var silentAfter: TimeInterval
    /// Gaps and days with data are looked for in this many weeks ending today.
    public var gapWeeks: Int

    /// The longest lookback a caller may ask for.
    public static let maximumGapWeeks = 26
    /// The longest silence threshold a caller may ask for, in hours (30 days).
    public static let maximumSilentHours = 720

    /// Settings; the defaults are 24 hours and 4 weeks.
    public init(silentAfter: TimeInterval = 86_400, gapWeeks: Int = 4) {
        self.silentAfter = silentAfter; self.gapWeeks = gapWeeks
    }
}
