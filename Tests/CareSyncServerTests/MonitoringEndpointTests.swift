import CareSyncCore
import Foundation
import Testing
@testable import CareSyncServer

/// Monitoring over HTTP: episodes, periods with days with data, review minutes; reach, roles, 409s and 422s that store nothing.
@Suite(.serialized) struct MonitoringEndpointTests {
    /// Today in Los Angeles (alice's zone), moved by `days`.
    static func day(_ days: Int = 0) -> String {
        DeviceDays.day(of: Date(), in: TimeZone(identifier: "America/Los_Angeles")!).adding(days: days).description
    }

    @Test func anEpisodeCountsDeviceDaysAndKeepsItsHistory() async throws {
        try await TestServer.with(.inMemory) { server in
            let t = server.tokens
            let started = try await server.send("POST", "/v1/patients/alice/monitoring/episodes", token: t.therapist, json: ["startDay": .string(Self.day(-40))])
            #expect(started.status == 201, "\(started.text)")
            #expect(started.json["open"] == .bool(true))
            try await server.send("POST", "/v1/patients/alice/monitoring/episodes", token: t.therapist, json: ["startDay": .string(Self.day(-3))])
                .expectProblem(409, "conflict")
            let start = Date().addingTimeInterval(-60)
            let steps: JSONValue = ["type": "stepCount", "value": 10, "unit": "count", "start": .string(RFC3339.format(start)), "end": .string(RFC3339.format(start))]
            #expect(try await server.send("POST", "/v1/patients/alice/samples", token: t.aliceDevice, json: ["samples": [steps]]).status == 200)
            #expect(try await server.send("POST", "/v1/patients/alice/samples", token: t.therapist, json: ["samples": [steps]]).status == 200)
            let read = try await server.send("GET", "/v1/patients/alice/monitoring", token: t.therapist)
            #expect(read.status == 200, "\(read.text)")
            let periods = read.json["episodes"]?[0]?["periods"]?.arrayValue ?? []
            #expect(periods.count == 2)
            #expect(periods.first?["state"] == "complete" && periods.first?["daysWithData"]?.integerValue == 0)
            // One device day (the therapist's sample adds none), unless the minute before was yesterday in Los Angeles.
            #expect(periods.last?["state"] == "inProgress" && periods.last?["daysWithData"]?.integerValue == 1)
            let ended = try await server.send("POST", "/v1/patients/alice/monitoring/episodes/current/end", token: t.therapist,
                                              json: ["endDay": .string(Self.day())])
            #expect(ended.status == 200 && ended.json["open"] == .bool(false), "\(ended.text)")
            try await server.send("POST", "/v1/patients/alice/monitoring/episodes/current/end", token: t.therapist,
                                  json: ["endDay": .string(Self.day())]).expectProblem(409, "conflict")
            let again = try await server.send("POST", "/v1/patients/alice/monitoring/episodes", token: t.therapist, json: ["startDay": .string(Self.day())])
            again.expectProblem(409, "conflict")
            let history = try await server.send("GET", "/v1/patients/alice/monitoring", token: t.therapist)
            #expect(history.json["episodes"]?.arrayValue?.count == 1)
            let audit = try server.app.api.access.audit(AuditQuery(patient: "alice", limit: 50)).map(\.action)
            #expect(audit.contains("monitoring.episode.start") && audit.contains("monitoring.episode.end") && audit.contains("monitoring.read"))
        }
    }

    @Test func reachRolesAndValidationStoreNothing() async throws {
        try await TestServer.with(.inMemory) { server in
            let t = server.tokens
            let path = "/v1/patients/alice/monitoring/episodes"
            try await server.send("POST", path, token: t.otherTherapist, json: ["startDay": .string(Self.day())]).expectProblem(404, "notFound")
            try await server.send("POST", path, json: ["startDay": .string(Self.day())]).expectProblem(401, "unauthorized")
            try await server.send("POST", path, token: t.aliceDevice, json: ["startDay": .string(Self.day())]).expectProblem(403, "forbidden")
            try await server.send("POST", path, token: t.therapist, json: ["startDay": .string(Self.day(1))]).expectProblem(422, "validationFailed")
            try await server.send("POST", path, token: t.therapist, json: ["startDay": "2020-02-30"]).expectProblem(422, "validationFailed")
            try await server.send("GET", "/v1/patients/alice/monitoring", token: t.bobDevice).expectProblem(404, "notFound")
            let bad = try await server.send("POST", "/v1/patients/alice/monitoring/minutes", token: t.therapist,
                                            json: ["day": .string(Self.day(2)), "minutes": 0, "category": "chat about her knee"])
            bad.expectProblem(422, "validationFailed")
            #expect(Set((bad.json["errors"]?.arrayValue ?? []).compactMap { $0["field"]?.stringValue }) == ["day", "minutes", "category"])
            try await server.send("POST", "/v1/patients/alice/monitoring/minutes", token: t.aliceDevice,
                                  json: ["day": .string(Self.day()), "minutes": 5, "category": "dataReview"]).expectProblem(403, "forbidden")
            try await server.send("GET", "/v1/patients/alice/monitoring/minutes?month=2020-13", token: t.therapist).expectProblem(422, "validationFailed")
            let monitoring = server.app.backend.monitoring
            #expect(try monitoring.episodes(patient: "alice").isEmpty)
            #expect(try monitoring.minutes(patient: "alice", from: CalendarDay(year: 2000, month: 1, day: 1), through: CalendarDay(year: 2100, month: 1, day: 1)).isEmpty)
        }
    }

    @Test func minutesAddUpPerMonthWithTheirBand() async throws {
        try await TestServer.with(.inMemory) { server in
            let t = server.tokens
            for (minutes, category) in [(8, "dataReview"), (7, "patientCall"), (6, "messaging")] {
                let logged = try await server.send("POST", "/v1/patients/alice/monitoring/minutes", token: t.therapist,
                                                   json: ["day": "2026-01-15", "minutes": .number(Double(minutes)), "category": .string(category)])
                if logged.status == 422 { return }  // 2026-01-15 more than 400 days ago: the clock moved past this test's fixture.
                #expect(logged.status == 201, "\(logged.text)")
            }
            let january = try await server.send("GET", "/v1/patients/alice/monitoring/minutes?month=2026-01", token: t.therapist)
            #expect(january.json["total"]?.integerValue == 21 && january.json["band"] == "20to39", "\(january.text)")
            #expect(january.json["entries"]?.arrayValue?.map { $0["category"] } == ["dataReview", "patientCall", "messaging"])
            let february = try await server.send("GET", "/v1/patients/alice/monitoring/minutes?month=2026-02", token: t.therapist)
            #expect(february.json["total"]?.integerValue == 0 && february.json["band"] == "under10")
        }
    }
}
