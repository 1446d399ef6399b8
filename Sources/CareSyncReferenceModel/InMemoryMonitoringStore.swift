import Foundation
import CareSyncCore
import CareSyncLocking

/// A `MonitoringStore` in memory: the oracle the contract suite holds the database stores to.
public final class InMemoryMonitoringStore: MonitoringStore {
    private struct State {
        var episodes: [MonitoringEpisode] = []
        var minutes: [ReviewMinutes] = []
        var goals: [String: [GoalKind: PatientGoal]] = [:]
        var nextID: Int64 = 1
        /// Ids erased: writes for them are refused, as the database stores refuse them.
        var erased: Set<String> = []

        /// Throws `ErasedPatientWrite` for an erased id.
        func refuseErased(_ patient: String) throws {
            if erased.contains(patient) { throw ErasedPatientWrite(patient: patient) }
        }
    }
    private let state = Locked(State())

    /// An empty store.
    public init() {}

    public func startEpisode(_ episode: MonitoringEpisode) throws -> MonitoringEpisode {
        try state.withLock { s in
            try s.refuseErased(episode.patient)
            let own = s.episodes.filter { $0.patient == episode.patient }
            guard !own.contains(where: \.isOpen) else { throw MonitoringStoreError.openEpisodeExists }
            if let last = own.compactMap(\.endDay).max(), last >= episode.startDay { throw MonitoringStoreError.overlapsEarlierEpisode(last) }
            var stored = episode
            stored.id = s.nextID
            stored.endDay = nil; stored.endedBy = nil; stored.endedAt = nil
            s.nextID += 1
            s.episodes.append(stored)
            return stored
        }
    }

    public func endEpisode(patient: String, endDay: CalendarDay, by tokenID: String, at: Date) throws -> MonitoringEpisode? {
        state.withLock { s in
            guard let i = s.episodes.firstIndex(where: { $0.patient == patient && $0.isOpen }) else { return nil }
            s.episodes[i].endDay = endDay; s.episodes[i].endedBy = tokenID; s.episodes[i].endedAt = at
            return s.episodes[i]
        }
    }

    public func episodes(patient: String) throws -> [MonitoringEpisode] {
        state.withLock { s in s.episodes.filter { $0.patient == patient }.sorted { ($0.startDay, $0.id) < ($1.startDay, $1.id) } }
    }

    public func logMinutes(_ entry: ReviewMinutes) throws -> ReviewMinutes {
        try state.withLock { s in
            try s.refuseErased(entry.patient)
            var stored = entry
            stored.id = s.nextID
            s.nextID += 1
            s.minutes.append(stored)
            return stored
        }
    }

    public func minutes(patient: String, from first: CalendarDay, through last: CalendarDay) throws -> [ReviewMinutes] {
        state.withLock { s in
            s.minutes.filter { $0.patient == patient && $0.day >= first && $0.day <= last }.sorted { ($0.day, $0.id) < ($1.day, $1.id) }
        }
    }

    public func setGoal(_ goal: PatientGoal) throws {
        try state.withLock { s in
            try s.refuseErased(goal.patient)
            s.goals[goal.patient, default: [:]][goal.kind] = goal
        }
    }

    public func goals(patient: String) throws -> [PatientGoal] {
        state.withLock { s in (s.goals[patient] ?? [:]).values.sorted { $0.kind.rawValue < $1.kind.rawValue } }
    }

    /// Remembers the id as erased and removes the patient's episodes, minutes and goals; their counts, as the erasure's
    /// receipt names them.
    func erase(patient: String) -> [ErasedCount] {
        state.withLock { s in
            s.erased.insert(patient)
            let episodes = s.episodes.count, minutes = s.minutes.count
            s.episodes.removeAll { $0.patient == patient }
            s.minutes.removeAll { $0.patient == patient }
            let goals = s.goals.removeValue(forKey: patient)?.count ?? 0
            return [ErasedCount(kind: "monitoringEpisodes", count: episodes - s.episodes.count),
                    ErasedCount(kind: "reviewMinutes", count: minutes - s.minutes.count), ErasedCount(kind: "goals", count: goals)]
        }
    }
}
