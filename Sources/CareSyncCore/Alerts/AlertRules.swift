/// One care team's alert rules: which are on and their thresholds; a team that never set them has `defaults`.
public struct AlertRules: Hashable, Sendable {
    /// Whether `deviceSilent` is evaluated.
    public var deviceSilentEnabled = true
    /// Hours without a sample received after which a device source is silent.
    public var deviceSilentHours = 48
    /// Whether `periodCannotReach16` is evaluated.
    public var periodCannotReach16Enabled = true
    /// Whether `periodBehindPace` is evaluated.
    public var periodBehindPaceEnabled = true
    /// Whether `weeklyStepsDrop` is evaluated.
    public var weeklyStepsDropEnabled = true
    /// The drop, in percent of the week before, beyond which `weeklyStepsDrop` holds.
    public var weeklyStepsDropPercent: Double = 30
    /// Whether `walkTestDrop` is evaluated.
    public var walkTestDropEnabled = true
    /// The drop in metres beyond which `walkTestDrop` holds.
    public var walkTestDropMeters: Double = 50

    /// The rules of a team that never set its own.
    public static let defaults = AlertRules()
    /// The allowed silence thresholds, in hours (1 hour to 30 days).
    public static let silentHoursRange = 1...StatusSettings.maximumSilentHours
    /// The allowed step drops, in percent.
    public static let stepsPercentRange: ClosedRange<Double> = 1...100
    /// The allowed walk drops, in metres.
    public static let walkMetersRange: ClosedRange<Double> = 1...1_000

    /// Rules with the defaults.
    public init() {}

    /// Whether `rule` is on.
    public func isEnabled(_ rule: AlertRule) -> Bool {
        switch rule {
        case .deviceSilent: deviceSilentEnabled
        case .periodCannotReach16: periodCannotReach16Enabled
        case .periodBehindPace: periodBehindPaceEnabled
        case .weeklyStepsDrop: weeklyStepsDropEnabled
        case .walkTestDrop: walkTestDropEnabled
        }
    }
}
