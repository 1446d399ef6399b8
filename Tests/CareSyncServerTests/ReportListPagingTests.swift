import CareSyncCore
import CareSyncTestSupport
import Foundation
import Testing
@testable import CareSyncServer

/// The report list answers in bounded pages: a flood of large reports never comes back in one answer, a
/// summary page carries counts without samples, and a cursor walks every report exactly once.
@Suite struct ReportListPagingTests {
    /// A report of `count` heart rates, one a minute from Monday 00:00 UTC of the week of 2020-06-15 + `week` weeks.
    static func report(_ id: String, week: Int, count: Int) -> JSONValue {
        let monday = Date(timeIntervalSince1970: 1_592_179_200) + Double(week) * 7 * 86_400
        let day = CalendarDay.of(monday, in: TimeZone(identifier: "UTC")!)
        let samples: [JSONValue] = (0..<count).map { n in
            let at = RFC3339.format(monday + Double(n) * 60)
            return ["key": .string("m\(n)"), "type": "heartRate", "value": 70, "unit": "count/min",
                    "start": .string(at), "end": .string(at)]
        }
        return ["syncIdentifier": .string(id), "syncVersion": 1, "weekStart": .string(day.description), "timeZone": "UTC",
                "samples": .array(samples)]
    }

    @Test func aFloodOfLargeReportsIsListedInPagesOfAtMostTheItemLimit() async throws {
        try await TestServer.with(.inMemory) { (server: TestServer) async throws in
            for n in 0..<5 {
                let posted = try await server.send("POST", "/v1/patients/alice/weekly-reports", token: server.tokens.aliceDevice,
                                                   json: Self.report("flood-\(n)", week: n, count: 2_000))
                #expect(posted.status == 200, "\(posted.text)")
            }
            var path = "/v1/patients/alice/weekly-reports"
            var ids: [String] = []
            var pages = 0
            while true {
                let page = try await server.send("GET", path, token: server.tokens.therapist)
                #expect(page.status == 200, "\(page.text)")
                pages += 1
                let reports = page.json["reports"]?.arrayValue ?? []
                let samples = reports.map { $0["samples"]?.arrayValue?.count ?? 0 }.reduce(0, +)
                #expect(!reports.isEmpty && samples <= 5_000, "page \(pages): \(samples) samples")
                #expect(page.body.count < 3_000_000, "page \(pages): \(page.body.count) bytes")
                ids += reports.compactMap { $0["syncIdentifier"]?.stringValue }
                guard let next = page.json["next"]?.stringValue else { #expect(page.json["next"] == .null); break }
                path = "/v1/patients/alice/weekly-reports?cursor=\(next)"
            }
            #expect(ids == (0..<5).map { "flood-\($0)" } && pages == 3)

            // Summaries follow the same budgets (the server counts what the caller may read), in a fraction of the bytes.
            let summary = try await server.send("GET", "/v1/patients/alice/weekly-reports?summary=true", token: server.tokens.therapist)
            let listed = summary.json["reports"]?.arrayValue ?? []
            #expect(listed.count == 2 && summary.json["next"]?.stringValue != nil && summary.body.count < 1_000)
            #expect(listed.allSatisfy { $0["samples"] == nil && $0["chart"] == nil && $0["sampleCount"] == 2_000 })

            // A token that may not read heart rates sees the reports with none of their samples, and counts none.
            let narrow = try await server.send("GET", "/v1/patients/alice/weekly-reports?summary=true&limit=2", token: server.tokens.narrow)
            #expect((narrow.json["reports"]?.arrayValue ?? []).map { $0["sampleCount"] } == [0, 0])
            #expect(narrow.json["next"]?.stringValue != nil)
        }
    }

    @Test func aPatientHoldsAtMostTheConfiguredReports() async throws {
        try await TestServer.with(.inMemory, configure: { $0.limits.reportsPerPatient = 3 }) { (server: TestServer) async throws in
            for n in 0..<3 {
                let posted = try await server.send("POST", "/v1/patients/alice/weekly-reports", token: server.tokens.therapist,
                                                   json: Self.report("r\(n)", week: n, count: 1))
                #expect(posted.status == 200, "\(posted.text)")
            }
            let refused = try await server.send("POST", "/v1/patients/alice/weekly-reports", token: server.tokens.aliceDevice,
                                                json: Self.report("r3", week: 3, count: 1))
            refused.expectProblem(422, "validationFailed")
            #expect(refused.json["errors"]?.arrayValue?.first?["field"] == "syncIdentifier")
            // A new version of a report the patient holds is no new report.
            var next = Self.report("r1", week: 1, count: 2)
            if case .object(var o) = next { o["syncVersion"] = 2; next = .object(o) }
            #expect(try await server.send("POST", "/v1/patients/alice/weekly-reports", token: server.tokens.therapist, json: next).status == 200)
            let listed = try await server.send("GET", "/v1/patients/alice/weekly-reports?summary=true", token: server.tokens.therapist)
            #expect((listed.json["reports"]?.arrayValue ?? []).compactMap { $0["syncIdentifier"]?.stringValue } == ["r0", "r1", "r2"])
            let feed = try await server.send("GET", "/v1/patients/alice/changes", token: server.tokens.therapist)
            #expect((feed.json["samples"]?.arrayValue ?? []).count == 4, "the refused report stored nothing")
        }
    }

    @Test(arguments: [("limit=0", "limit"), ("limit=501", "limit"), ("limit=x", "limit"), ("cursor=%25%25", "cursor"),
                      ("cursor=WyJ4Il0", "cursor"), ("summary=yes", "summary"), ("from=2020-13-01", "from")])
    func badPagingParametersAre422NamingThem(query: String, field: String) async throws {
        try await TestServer.with(.inMemory) { (server: TestServer) async throws in
            let reply = try await server.send("GET", "/v1/patients/alice/weekly-reports?\(query)", token: server.tokens.therapist)
            reply.expectProblem(422, "validationFailed")
            #expect(reply.json["errors"]?.arrayValue?.first?["field"]?.stringValue == field, "\(reply.text)")
        }
    }
}
