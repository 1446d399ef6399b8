import CareSyncCore
import CareSyncHTTP

/// Statistics answers as JSON: the figures each bucket carries are the options asked for.
enum StatisticsWire {
    /// A statistics collection as the API answers it.
    static func encode(_ c: StatisticsCollection) -> JSONValue {
        func figures(_ v: StatisticsValues, into o: inout [String: JSONValue]) {
            if c.options.contains(.cumulativeSum) { o["sum"] = .optional(v.sum) }
            if c.options.contains(.discreteAverage) { o["average"] = .optional(v.average) }
            if c.options.contains(.discreteMin) { o["min"] = .optional(v.minimum) }
            if c.options.contains(.discreteMax) { o["max"] = .optional(v.maximum) }
            if c.options.contains(.mostRecent) { o["mostRecent"] = .optional(v.mostRecent) }
            if c.options.contains(.durationByValue) {
                // One entry per value that occurs, by value, with HealthKit's name for it.
                let names = Dictionary(uniqueKeysWithValues: c.type.definition.values.map { ($0.value, $0.name) })
                o["durations"] = .array((v.durations ?? [:]).sorted { $0.key < $1.key }.map { value, duration in
                    ["value": .number(Double(value)), "name": .optional(names[value]), "duration": .number(duration)]
                })
            }
        }
        return [
            "type": .string(c.type.rawValue), "unit": .string(c.unit.symbol),
            "buckets": .array(c.buckets.map { b in
                var o: [String: JSONValue] = ["start": .string(RFC3339.format(b.start)), "end": .string(RFC3339.format(b.end))]
                figures(b.values, into: &o)
                if let sources = b.sources {
                    o["sources"] = .array(sources.map { s in
                        var so: [String: JSONValue] = ["source": .string(s.source)]
                        figures(s.values, into: &so)
                        return .object(so)
                    })
                }
                return .object(o)
            }),
        ]
    }
}
