import CareSyncTestSupport
import Foundation
@testable import CareSyncServer

extension TestServer {
    /// The Host header the in-memory requests carry (live ones send `127.0.0.1:port`).
    static let fhirHost = "caresync.test"

    /// A FHIR GET with the fixture's Host header and an optional token and `Prefer`.
    func fhir(_ path: String, token: String?, prefer: String? = nil) async throws -> TestReply {
        var headers = [("Host", Self.fhirHost)]
        if let prefer { headers.append(("Prefer", prefer)) }
        return try await send("GET", path, token: token, headers: mode == .inMemory ? headers : headers.filter { $0.0 != "Host" })
    }

    /// Posts samples for `patient` and expects 200.
    func postSamples(_ patient: String, token: String, _ samples: [JSONValue]) async throws {
        let reply = try await send("POST", "/v1/patients/\(patient)/samples", token: token, json: ["samples": .array(samples)])
        guard reply.status == 200 else { throw FHIRTestFailure(message: "POST samples answered \(reply.status): \(reply.text)") }
    }
}

/// A fixture step that did not go as the test needs.
struct FHIRTestFailure: Error { var message: String }

extension TestReply {
    /// The OperationOutcome's first issue code, when the body is one.
    var outcomeIssue: String? {
        json["resourceType"] == "OperationOutcome" ? json["issue"]?.arrayValue?.first?["code"]?.stringValue : nil
    }
    /// The Bundle's entries' resources.
    var resources: [JSONValue] { json["entry"]?.arrayValue?.compactMap { $0["resource"] } ?? [] }
    /// A Bundle link by relation.
    func link(_ relation: String) -> String? {
        json["link"]?.arrayValue?.first { $0["relation"]?.stringValue == relation }?["url"]?.stringValue
    }
}

/// Sample bodies for the FHIR tests.
enum FHIRFixtures {
    /// A sample at `minute` minutes after 2020-06-18T10:00:00Z, lasting `minutes`.
    static func sample(_ type: String, _ value: Double, unit: String, minute: Int, minutes: Int = 0) -> JSONValue {
        let start = Date(timeIntervalSince1970: 1_592_474_400 + Double(minute * 60))
        let o: [String: JSONValue] = ["type": .string(type), "value": .number(value), "unit": .string(unit),
                                      "start": .string(RFC3339Text.of(start)), "end": .string(RFC3339Text.of(start.addingTimeInterval(Double(minutes * 60))))]
        return .object(o)
    }
}

/// RFC 3339 text of a date (UTC, milliseconds).
enum RFC3339Text {
    static func of(_ date: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.string(from: date)
    }
}
