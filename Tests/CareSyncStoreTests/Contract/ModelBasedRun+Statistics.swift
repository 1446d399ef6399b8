import CareSyncCore
import Foundation

extension ModelBasedRun {
    /// The store's statistics equal the model's for every patient: hourly sums by source of a cumulative type,
    /// hourly average/min/max of discrete ones and of blood pressure's components, with and without user-entered
    /// samples, in a zone with an offset.
    func checkStatistics() throws {
        let start = OperationGenerator.base.addingTimeInterval(-86_400), end = OperationGenerator.base.addingTimeInterval(9 * 86_400)
        let queries: [StatisticsQuery] = [false, true].flatMap { excludeUserEntered in [
            StatisticsQuery(type: .stepCount, start: start, end: end, interval: .hour, timeZone: "Europe/Berlin",
                            options: [.cumulativeSum, .separateBySource], excludeUserEntered: excludeUserEntered),
            StatisticsQuery(type: .heartRate, start: start, end: end, interval: .hour, timeZone: "Europe/Berlin",
                            options: [.discreteAverage, .discreteMin, .discreteMax], excludeUserEntered: excludeUserEntered),
            StatisticsQuery(type: .bodyMass, start: start, end: end, interval: .day, timeZone: "America/New_York",
                            options: [.discreteAverage], excludeUserEntered: excludeUserEntered, sources: ["s1"]),
            // Components: standalone systolic samples and the systolic and diastolic of blood pressure pairs.
            StatisticsQuery(type: .bloodPressureSystolic, start: start, end: end, interval: .day, timeZone: "Europe/Berlin",
                            options: [.discreteAverage, .discreteMin, .discreteMax], excludeUserEntered: excludeUserEntered),
            StatisticsQuery(type: .bloodPressureDiastolic, start: start, end: end, interval: .hour, timeZone: "UTC",
                            options: [.discreteAverage, .separateBySource], excludeUserEntered: excludeUserEntered, sources: ["s2"]),
            StatisticsQuery(type: .sleepAnalysis, start: start, end: end, interval: .hour, timeZone: "Asia/Kolkata",
                            options: [.durationByValue, .separateBySource], unit: .named("min"), excludeUserEntered: excludeUserEntered),
        ] }
        for patient in OperationGenerator.patients {
            for query in queries {
                let stored = try store.statistics(patient: patient, query: query)
                let expected = try model.statistics(patient: patient, query: query)
                guard stored.buckets.count == expected.buckets.count,
                      zip(stored.buckets, expected.buckets).allSatisfy({ Self.close($0, $1) }) else {
                    throw Divergence(description: "statistics of \(query.type.rawValue) for \(patient) differ: store \(stored.buckets.filter { !$0.values.isEmpty }), model \(expected.buckets.filter { !$0.values.isEmpty })")
                }
            }
        }
    }

    /// Buckets equal up to floating-point rounding (the stores may add the same figures in another order).
    static func close(_ a: StatisticsBucket, _ b: StatisticsBucket) -> Bool {
        guard a.start == b.start, a.end == b.end, close(a.values, b.values) else { return false }
        let left = (a.sources ?? []).sorted { $0.source < $1.source }, right = (b.sources ?? []).sorted { $0.source < $1.source }
        return left.count == right.count && zip(left, right).allSatisfy { $0.source == $1.source && close($0.values, $1.values) }
    }

    static func close(_ a: StatisticsValues, _ b: StatisticsValues) -> Bool {
        func same(_ x: Double?, _ y: Double?) -> Bool {
            switch (x, y) {
            case (nil, nil): true
            case let (x?, y?): abs(x - y) <= 1e-9 * max(1, abs(x), abs(y))
            default: false
            }
        }
        let durations = (a.durations ?? [:]).keys.sorted() == (b.durations ?? [:]).keys.sorted()
            && (a.durations ?? [:]).allSatisfy { same($0.value, b.durations?[$0.key]) }
        return same(a.sum, b.sum) && same(a.average, b.average) && same(a.minimum, b.minimum) && same(a.maximum, b.maximum)
            && durations
    }
}
