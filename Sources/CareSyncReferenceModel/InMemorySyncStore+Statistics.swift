import CareSyncCore

extension InMemorySyncStore {
    /// Statistics over a patient's live samples, selected as the SQLite store's SQL selects them: discrete
    /// samples by their start in the range, cumulative and category ones when any of them reaches into it. A component
    /// type (`bloodPressureSystolic`) also counts that component of its correlations (`bloodPressure`).
    public func statistics(patient: String, query: StatisticsQuery) throws -> StatisticsCollection {
        let plan = try StatisticsPlan(query)
        let first = plan.startMilliseconds, last = plan.endMilliseconds
        let samples = read { state in
            state.live.values.lazy.filter { $0.patient == patient }.map(\.sample).filter { sample in
                guard sample.value(for: query.type) != nil else { return false }
                if sample.type != query.type, let allowed = query.correlations, !allowed.contains(sample.type) { return false }
                if query.excludeUserEntered, sample.metadata["wasUserEntered"] == .bool(true) { return false }
                if let sources = query.sources, !sources.contains(sample.source) { return false }
                let start = SyncRules.milliseconds(sample.start), end = SyncRules.milliseconds(sample.end)
                guard start < last else { return false }
                return query.countsOverlap ? (start >= first || end > first) : start >= first
            }
        }
        var input = StatisticsInput(capacity: samples.count)
        for sample in samples.sorted(by: { ($0.start, $0.end, $0.uuid.uuidString) < ($1.start, $1.end, $1.uuid.uuidString) }) {
            input.append(sample, for: query.type)
        }
        return StatisticsEngine.run(plan, input: input)
    }
}
