import Foundation

/// A therapist's goal for a patient: one per kind, replaced when set again.
public struct PatientGoal: Hashable, Sendable {
    /// The patient.
    public var patient: String
    /// What the goal is about.
    public var kind: GoalKind
    /// The target in the kind's unit (steps a day, metres).
    public var target: Double
    /// The token that set it.
    public var setBy: String
    /// When it was set (server time).
    public var setAt: Date

    /// A goal.
    public init(patient: String, kind: GoalKind, target: Double, setBy: String, setAt: Date) {
        self.patient = patient; self.kind = kind; self.target = target; self.setBy = setBy; self.setAt = setAt
    }
}

/// The kinds of goal, each with the sample type it is measured by and its bounds.
public enum GoalKind: String, CaseIterable, Hashable, Sendable {
    /// Steps per calendar day (patient's zone), met on a day whose step total reaches the target.
    case dailySteps
    /// Six-minute-walk distance in metres, met when the latest walk reaches it.
    case sixMinuteWalk

    /// The sample type the goal is measured by.
    public var type: SampleType { self == .dailySteps ? .stepCount : .sixMinuteWalkTestDistance }
    /// The largest target allowed.
    public var maximumTarget: Double { self == .dailySteps ? 100_000 : 1_000 }
}
