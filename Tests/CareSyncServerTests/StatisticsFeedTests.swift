import CareSyncCore
import Foundation
import Testing
@testable import CareSyncServer

/// GET …/statistics/changes: applying its buckets to the collection a chart holds gives exactly what recomputing
/// the whole range gives, on random writes across a daylight-saving change.
@Suite struct StatisticsFeedTests {
    /// Alice lives in Los Angeles; clocks go back on 2020-11-01.
    static let range = "start=2020-10-19T07:00:00Z&end=2020-11-16T08:00:00Z&timeZone=America/Los_Angeles"
    static let queries = [
        "type=stepCount&interval=day&options=cumulativeSum,separateBySource",
        "type=stepCount&interval=week&anchorDate=2020-10-19T07:00:00Z&options=cumulativeSum",
        "type=heartRate&interval=day&options=discreteAverage,discreteMin,discreteMax",
        "type=stepCount&interval=hour&options=cumulativeSum",
        "type=bloodPressureDiastolic&interval=day&options=discreteAverage,discreteMax,separateBySource",
        "type=sleepAnalysis&interval=day&options=durationByValue",
    ]

    /// A random sample, often keyed: steps or sleep (up to five hours, so it spans buckets), a heart rate, a
    /// blood pressure pair or a single diastolic reading.
    static func randomSample(_ rng: inout SystemRandomNumberGenerator) -> JSONValue {
        let start = Date(timeIntervalSince1970: 1_603_090_800 + Double(Int.random(in: 0..<(28 * 96), using: &rng)) * 900)
        let kind = ["stepCount", "heartRate", "bloodPressure", "bloodPressureDiastolic", "sleepAnalysis"].randomElement(using: &rng)!
        let spans = kind == "stepCount" || kind == "sleepAnalysis"
        let end = spans ? start.addingTimeInterval(Double(Int.random(in: 0...20, using: &rng)) * 900) : start
        var o: [String: JSONValue] = [
            "type": .string(kind), "value": .number(Double(Int.random(in: 40...400, using: &rng))),
            "start": .string(RFC3339.format(start)), "end": .string(RFC3339.format(end)),
        ]
        switch kind {
        case "stepCount": o["unit"] = "count"
        case "heartRate": o["unit"] = "count/min"
        case "sleepAnalysis": o["value"] = .number(Double(Int.random(in: 0...5, using: &rng)))
        case "bloodPressure":
            o["value"] = nil
            o["unit"] = "mmHg"
            o["components"] = ["bloodPressureSystolic": .number(Double(Int.random(in: 100...160, using: &rng))),
                               "bloodPressureDiastolic": .number(Double(Int.random(in: 60...100, using: &rng)))]
        default: o["unit"] = "mmHg"
        }
        if Int.random(in: 0..<3, using: &rng) > 0 {
            o["syncIdentifier"] = .string("k\(Int.random(in: 0..<12, using: &rng))")
            o["syncVersion"] = .number(Double(Int.random(in: 0...6, using: &rng)))
        }
        return .object(o)
    }

    /// The buckets of `update` put in place of the buckets of `chart` with the same start.
    static func apply(_ update: JSONValue, to chart: JSONValue) -> [JSONValue] {
        let fresh = Dictionary((update["buckets"]?.arrayValue ?? []).map { ($0["start"]!, $0) }, uniquingKeysWith: { a, _ in a })
        return (chart["buckets"]?.arrayValue ?? []).map { fresh[$0["start"]!] ?? $0 }
    }

    @Test(arguments: queries)
    func appliedChangesEqualRecomputingTheWholeRange(query: String) async throws {
        try await TestServer.with(.inMemory) { server in
            let t = server.tokens
            var rng = SystemRandomNumberGenerator()
            let statistics = "/v1/patients/alice/statistics?\(query)&\(Self.range)"
            let feed = "/v1/patients/alice/statistics/changes?\(query)&\(Self.range)"
            // Without an anchor: every bucket, as the statistics query gives them.
            let first = try await server.send("GET", feed, token: t.therapist)
            #expect(first.status == 200, "\(first.text)")
            var chart = try await server.send("GET", statistics, token: t.therapist).json
            #expect(first.json["buckets"] == chart["buckets"])
            var anchor = try #require(first.json["anchor"]?.stringValue)
            var sent = 0
            for round in 0..<12 {
                for _ in 0..<Int.random(in: 1...4, using: &rng) {
                    let batch = (0..<Int.random(in: 1...6, using: &rng)).map { _ in Self.randomSample(&rng) }
                    let posted = try await server.send("POST", "/v1/patients/alice/samples", token: t.aliceDevice, json: ["samples": .array(batch)])
                    #expect(posted.status == 200, "\(posted.text)")
                }
                if round % 3 == 2 {
                    let gone = try await server.send("POST", "/v1/patients/alice/samples/delete", token: t.aliceDevice,
                                                     json: ["syncIdentifiers": .array((0..<3).map { _ in .string("k\(Int.random(in: 0..<12, using: &rng))") })])
                    #expect(gone.status == 200, "\(gone.text)")
                }
                // Bob's writes touch no bucket of alice's.
                _ = try await server.send("POST", "/v1/patients/bob/samples", token: t.bobDevice, json: ["samples": [Self.randomSample(&rng)]])

                let changes = try await server.send("GET", feed + "&anchor=\(anchor)", token: t.therapist)
                #expect(changes.status == 200, "\(changes.text)")
                let recomputed = try await server.send("GET", statistics, token: t.therapist).json
                #expect(Self.apply(changes.json, to: chart) == recomputed["buckets"]?.arrayValue, "round \(round)")
                sent += changes.json["buckets"]?.arrayValue?.count ?? 0
                chart = recomputed
                anchor = try #require(changes.json["anchor"]?.stringValue)
            }
            // Nothing new: no bucket.
            let quiet = try await server.send("GET", feed + "&anchor=\(anchor)", token: t.therapist)
            #expect(quiet.json["buckets"] == [])
            // The feed sends less than the whole range each time (the point of it).
            #expect(sent < 12 * (chart["buckets"]?.arrayValue?.count ?? 0))
        }
    }

    @Test func anUnreadableTypeNeverChangesAndBadAnchorsAreRefused() async throws {
        try await TestServer.with(.inMemory) { server in
            let t = server.tokens
            let feed = "/v1/patients/alice/statistics/changes?\(Self.queries[0])&\(Self.range)"
            let head = try #require(try await server.send("GET", feed, token: t.narrow).json["anchor"]?.stringValue)
            var rng = SystemRandomNumberGenerator()
            _ = try await server.send("POST", "/v1/patients/alice/samples", token: t.aliceDevice, json: ["samples": [Self.randomSample(&rng)]])
            let hidden = try await server.send("GET", feed + "&anchor=\(head)", token: t.narrow)
            #expect(hidden.status == 200)
            #expect(hidden.json["buckets"] == [])
            #expect(hidden.json["anchor"]?.stringValue != head, "the anchor still moves on")
            try await server.send("GET", feed + "&anchor=nonsense", token: t.therapist).expectProblem(400, "invalidAnchor")
            try await server.send("GET", "/v1/patients/alice/statistics/changes?type=stepCount", token: t.therapist)
                .expectProblem(422, "validationFailed")
            try await server.send("GET", "/v1/patients/bob/statistics/changes?\(Self.queries[0])&\(Self.range)", token: t.therapist)
                .expectProblem(404, "notFound")
        }
    }
}
