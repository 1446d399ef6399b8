import CareSyncCore
import CareSyncTestSupport
import Foundation
import Testing
@testable import CareSyncServer

/// GET /v1/care-teams/{name}/worksheet: periods ending in the month and the month's minutes, as JSON and as CSV that
/// Python's csv module reads to the same figures; spreadsheet-safe cells; reach and validation.
@Suite(.serialized) struct WorksheetEndpointTests {
    /// Today in Los Angeles (alice's zone), moved by `days`.
    static func day(_ days: Int = 0) -> CalendarDay {
        DeviceDays.day(of: Date(), in: TimeZone(identifier: "America/Los_Angeles")!).adding(days: days)
    }

    @Test func csvAndJSONCarryTheSameFigures() async throws {
        try await TestServer.with(.inMemory) { server in
            let t = server.tokens, admin = server.app.api.admin
            // A patient id a spreadsheet would read as a formula.
            _ = try admin.createPatient(id: "-cmd", timeZone: "America/Los_Angeles", now: Date())
            try admin.addPatient("-cmd", toCareTeam: "physio")
            let start = Self.day(-45)
            #expect(try await server.send("POST", "/v1/patients/alice/monitoring/episodes", token: t.therapist,
                                          json: ["startDay": .string(start.description)]).status == 201)
            let firstEnd = start.adding(days: 29)
            let month = String(firstEnd.description.prefix(7))
            // A device day in the first period, and minutes in its last month.
            let sampleStart = firstEnd.start(in: TimeZone(identifier: "America/Los_Angeles")!).addingTimeInterval(3600)
            let steps: JSONValue = ["type": "stepCount", "value": 10, "unit": "count", "start": .string(RFC3339.format(sampleStart)),
                                    "end": .string(RFC3339.format(sampleStart))]
            #expect(try await server.send("POST", "/v1/patients/alice/samples", token: t.aliceDevice, json: ["samples": [steps]]).status == 200)
            #expect(try await server.send("POST", "/v1/patients/alice/monitoring/minutes", token: t.therapist,
                                          json: ["day": .string(firstEnd.description), "minutes": 25, "category": "dataReview"]).status == 201)

            let json = try await server.send("GET", "/v1/care-teams/physio/worksheet?month=\(month)", token: t.therapist)
            #expect(json.status == 200, "\(json.text)")
            let alice = json.json["patients"]?.arrayValue?.first { $0["patient"] == "alice" }
            #expect(alice?["periods"]?[0]?["daysWithData"]?.integerValue == 1)
            #expect(alice?["periods"]?[0]?["endDay"]?.stringValue == firstEnd.description)
            #expect(alice?["minutes"]?["total"]?.integerValue == 25 && alice?["minutes"]?["band"] == "20to39")
            let csv = try await server.send("GET", "/v1/care-teams/physio/worksheet?month=\(month)", token: t.therapist,
                                            headers: [("Accept", "text/csv")])
            #expect(csv.status == 200 && csv.header("Content-Type") == "text/csv; charset=utf-8")
            #expect(csv.text.contains("\r\n'-cmd,"))

            let directory = try TemporaryDirectory("caresync-worksheet")
            try Data(json.body).write(to: URL(fileURLWithPath: directory.path("w.json")))
            try Data(csv.body).write(to: URL(fileURLWithPath: directory.path("w.csv")))
            let arguments = ["python3", TestServer.repositoryRoot.appendingPathComponent("scripts/check-worksheet-csv.py").path,
                             directory.path("w.json"), directory.path("w.csv")]
            let (status, said) = try await onDedicatedThread { () throws -> (Int32, String) in
                let (ended, output) = try ChildProcess.run("/usr/bin/env", arguments)
                return (ended.status, String(decoding: output, as: UTF8.self))
            }
            #expect(status == 0, "\(said)")
        }
    }

    @Test func cellsAreNeutralisedAndQuoted() {
        #expect(WorksheetCSV.line(["=1+1", "+x", "-y", "@z", "\tt", "a,b", "say \"hi\"", "ok"])
                == "'=1+1,'+x,'-y,'@z,'\tt,\"a,b\",\"say \"\"hi\"\"\",ok")
    }

    @Test func reachAndValidation() async throws {
        try await TestServer.with(.inMemory) { server in
            let t = server.tokens
            try await server.send("GET", "/v1/care-teams/physio/worksheet?month=2026-01", token: t.otherTherapist).expectProblem(404, "notFound")
            try await server.send("GET", "/v1/care-teams/physio/worksheet?month=2026-01", token: t.aliceDevice).expectProblem(404, "notFound")
            try await server.send("GET", "/v1/care-teams/physio/worksheet?month=2026-01").expectProblem(401, "unauthorized")
            try await server.send("GET", "/v1/care-teams/physio/worksheet", token: t.therapist).expectProblem(422, "validationFailed")
            try await server.send("GET", "/v1/care-teams/physio/worksheet?month=2026-1", token: t.therapist).expectProblem(422, "validationFailed")
        }
    }
}
