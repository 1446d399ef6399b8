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

            try await Self.expectSameFigures(json: json.body, csv: csv.body)
        }
    }

    /// Python's csv module reads `csv` to `json`'s figures (`scripts/check-worksheet-csv.py`).
    static func expectSameFigures(json: [UInt8], csv: [UInt8]) async throws {
        let directory = try TemporaryDirectory("caresync-worksheet")
        try Data(json).write(to: URL(fileURLWithPath: directory.path("w.json")))
        try Data(csv).write(to: URL(fileURLWithPath: directory.path("w.csv")))
        let arguments = ["python3", TestServer.repositoryRoot.appendingPathComponent("scripts/check-worksheet-csv.py").path,
                         directory.path("w.json"), directory.path("w.csv")]
        let (status, said) = try await onDedicatedThread { () throws -> (Int32, String) in
            let (ended, output) = try ChildProcess.run("/usr/bin/env", arguments)
            return (ended.status, String(decoding: output, as: UTF8.self))
        }
        #expect(status == 0, "\(said)")
    }

    /// A patient taken off the team stays on its sheets through the month they left in, with the figures as they stood
    /// when they left: days with data and minutes through that day, an episode ended later by another team still open;
    /// a later month's sheet leaves them out, and joining again makes them a member like any other.
    @Test func aPatientTakenOffStaysOnTheSheetsThroughTheMonthTheyLeft() async throws {
        // 2026-03-20, 13:00 in Los Angeles (alice's zone).
        let clock = ManualClock(at: Date(timeIntervalSince1970: 1_774_036_800))
        try await TestServer.with(.inMemory, clock: clock.serverClock) { server in
            let t = server.tokens, zone = TimeZone(identifier: "America/Los_Angeles")!
            func steps(on day: String) -> JSONValue {
                let start = CalendarDay(parsing: day)!.start(in: zone).addingTimeInterval(12 * 3600)
                return ["samples": [["type": "stepCount", "value": 100, "unit": "count", "start": .string(RFC3339.format(start)),
                                     "end": .string(RFC3339.format(start.addingTimeInterval(60)))]]]
            }
            func sheet(_ token: String, team: String, month: String) async throws -> [JSONValue] {
                let answer = try await server.send("GET", "/v1/care-teams/\(team)/worksheet?month=\(month)", token: token)
                #expect(answer.status == 200, "\(answer.text)")
                return answer.json["patients"]?.arrayValue ?? []
            }
            try server.app.api.admin.addPatient("alice", toCareTeam: "cardio")
            #expect(try await server.send("POST", "/v1/patients/alice/monitoring/episodes", token: t.therapist,
                                          json: ["startDay": "2026-03-01"]).status == 201)
            for day in ["2026-03-05", "2026-03-18"] {
                #expect(try await server.send("POST", "/v1/patients/alice/samples", token: t.aliceDevice, json: steps(on: day)).status == 200)
            }
            #expect(try await server.send("POST", "/v1/patients/alice/monitoring/minutes", token: t.therapist,
                                          json: ["day": "2026-03-10", "minutes": 12, "category": "dataReview"]).status == 201)
            #expect(try await server.send("DELETE", "/v1/care-teams/physio/patients/alice", token: t.admin).status == 200)
            // Cardio goes on after physio let alice go: a day with data, minutes, and the episode's end.
            clock.advance(by: 5 * 86_400)
            #expect(try await server.send("POST", "/v1/patients/alice/samples", token: t.aliceDevice, json: steps(on: "2026-03-23")).status == 200)
            #expect(try await server.send("POST", "/v1/patients/alice/monitoring/minutes", token: t.otherTherapist,
                                          json: ["day": "2026-03-24", "minutes": 30, "category": "patientCall"]).status == 201)
            #expect(try await server.send("POST", "/v1/patients/alice/monitoring/episodes/current/end", token: t.otherTherapist,
                                          json: ["endDay": "2026-03-25"]).status == 200)

            let physio = try await sheet(t.therapist, team: "physio", month: "2026-03")
            #expect(physio.map { $0["patient"] } == ["alice"], "still on the sheet of the month she left in")
            let left = try #require(physio.first)
            #expect(left["leftTeamOn"] == "2026-03-20")
            #expect(left["periods"]?[0]?["state"] == "inProgress" && left["periods"]?[0]?["daysWithData"]?.integerValue == 2,
                    "as it stood on the day she left: \(left)")
            #expect(left["minutes"]?["total"]?.integerValue == 12 && left["minutes"]?["band"] == "10to19")
            let cardio = try await sheet(t.otherTherapist, team: "cardio", month: "2026-03").first { $0["patient"] == "alice" }
            #expect(cardio?["leftTeamOn"] == .null && cardio?["periods"]?[0]?["state"] == "endedEarly")
            #expect(cardio?["periods"]?[0]?["daysWithData"]?.integerValue == 3 && cardio?["minutes"]?["total"]?.integerValue == 42)
            #expect(try await sheet(t.therapist, team: "physio", month: "2026-02").first?["leftTeamOn"] == "2026-03-20")
            #expect(try await sheet(t.therapist, team: "physio", month: "2026-04").isEmpty, "not after the month she left in")
            let csv = try await server.send("GET", "/v1/care-teams/physio/worksheet?month=2026-03", token: t.therapist,
                                            headers: [("Accept", "text/csv")])
            #expect(csv.text.hasSuffix(",2026-03-20\r\n"), "\(csv.text)")
            let json = try await server.send("GET", "/v1/care-teams/physio/worksheet?month=2026-03", token: t.therapist)
            try await Self.expectSameFigures(json: json.body, csv: csv.body)

            try server.app.api.admin.addPatient("alice", toCareTeam: "physio")
            let again = try await sheet(t.therapist, team: "physio", month: "2026-03")
            #expect(again.count == 1 && again.first?["leftTeamOn"] == .null && again.first?["minutes"]?["total"]?.integerValue == 42,
                    "a member again: the figures as they are now")
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
