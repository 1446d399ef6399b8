import Foundation

/// Why a monitoring-store write was refused.
public enum MonitoringStoreError: Error, Hashable, Sendable {
    /// The patient already has an open episode.
    case openEpisodeExists
    /// The new episode would start on or before the last day of an earlier one.
    case overlapsEarlierEpisode(CalendarDay)
}

/// Monitoring episodes, review minutes and goals (docs/monitoring.md). Methods are blocking and thread-safe; every check of a
/// write runs in its transaction.
public protocol MonitoringStore: Sendable {
    /// Stores a new open episode and returns it with its id; `openEpisodeExists` while one is open,
    /// `overlapsEarlierEpisode` when it starts on or before an earlier episode's last day.
    func startEpisode(_ episode: MonitoringEpisode) throws -> MonitoringEpisode
    /// Ends the patient's open episode on `endDay` (its last day); nil when none is open.
    func endEpisode(patient: String, endDay: CalendarDay, by tokenID: String, at: Date) throws -> MonitoringEpisode?
    /// Every episode of the patient, oldest first.
    func episodes(patient: String) throws -> [MonitoringEpisode]
    /// Stores one review-minutes entry and returns it with its id.
    func logMinutes(_ entry: ReviewMinutes) throws -> ReviewMinutes
    /// The patient's entries with a day from `first` through `last`, by day, then id.
    func minutes(patient: String, from first: CalendarDay, through last: CalendarDay) throws -> [ReviewMinutes]
    /// Sets the patient's goal of its kind, replacing any earlier one.
    func setGoal(_ goal: PatientGoal) throws
    /// The patient's goals, by kind.
    func goals(patient: String) throws -> [PatientGoal]
}
