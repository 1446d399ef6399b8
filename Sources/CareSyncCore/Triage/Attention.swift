/// How much a patient needs a therapist's attention, and the facts behind it (docs/status.md).
///
/// `score` = 100 × silent sources + 100 when the patient has no device source at all + 10 × days without device data
/// among the last 7 days of the window + 5 when the latest six-minute walk is shorter than the previous one + 50 × open
/// (unacknowledged) alerts.
public struct Attention: Hashable, Sendable {
    /// Device sources silent beyond the threshold.
    public var silentSources: Int
    /// Whether the patient has no device token at all.
    public var noDevice: Bool
    /// Days without device data among the last 7 days of the window (today included).
    public var daysWithoutDataLastWeek: Int
    /// Whether the latest walk test is shorter than the previous one.
    public var walkDeclined: Bool
    /// Open alerts of the patient (raised, not yet acknowledged nor resolved).
    public var openAlerts: Int

    /// An attention value.
    public init(silentSources: Int, noDevice: Bool, daysWithoutDataLastWeek: Int, walkDeclined: Bool, openAlerts: Int = 0) {
        self.silentSources = silentSources; self.noDevice = noDevice
        self.daysWithoutDataLastWeek = daysWithoutDataLastWeek; self.walkDeclined = walkDeclined
        self.openAlerts = openAlerts
    }

    /// The sort key of the triage list: higher needs attention sooner.
    public var score: Int {
        100 * silentSources + (noDevice ? 100 : 0) + 10 * daysWithoutDataLastWeek + (walkDeclined ? 5 : 0) + 50 * openAlerts
    }
}
