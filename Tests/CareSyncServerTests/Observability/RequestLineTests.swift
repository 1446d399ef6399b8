import CareSyncHTTP
import Foundation
import Logging
import Testing
@testable import CareSyncServer

/// The `http.request` line written straight from its fields is the line the generic path writes for its metadata.
@Suite struct RequestLineTests {
    static let records: [RequestLogRecord] = [
        RequestLogRecord(requestID: "9f3a1c2e-42", method: "GET", route: "/healthz", status: 200, durationMicroseconds: 37,
                         requestBytes: 0, responseBytes: 15, tokenID: nil),
        RequestLogRecord(requestID: "ab-1", method: "POST", route: "/v1/patients/{patientId}/samples", status: 201,
                         durationMicroseconds: 1_234_567, requestBytes: 8_388_608, responseBytes: nil, tokenID: "a65bbfe3e1f9ff09"),
        RequestLogRecord(requestID: "has space \"and\" quote=\n", method: "DELETE", route: "", status: 503,
                         durationMicroseconds: 0, requestBytes: 0, responseBytes: 0, tokenID: ""),
        RequestLogRecord(requestID: "x", method: "GET", route: "other", status: 404, durationMicroseconds: .max,
                         requestBytes: .max, responseBytes: .max, tokenID: "t\u{2028}"),
        RequestLogRecord(requestID: "y", method: "GET", route: "other", status: 500, durationMicroseconds: -5,
                         requestBytes: 1, responseBytes: 10, tokenID: "é"),
    ]

    @Test(arguments: Configuration.LogFormat.allCases)
    func theDirectLineIsTheGenericLineByteForByte(format: Configuration.LogFormat) {
        let formatter = LogLineFormatter(format: format)
        for record in Self.records {
            for level in [Logger.Level.info, .warning, .critical] {
                let generic = formatter.line(time: "2026-11-21T15:31:32.724Z", level: level, label: "caresync",
                                             message: RequestLogRecord.message, metadata: LogPrivacy.filter(record.metadata))
                let direct = formatter.requestLine(time: "2026-11-21T15:31:32.724Z", level: level, label: "caresync", record: record)
                #expect(direct == generic)
            }
        }
    }

    @Test func aLoggerWithMetadataOfItsOwnStillWritesEveryField() async throws {
        var router = Router()
        router.get("/healthz") { _, _ in .text("ok") }
        let collector = LineCollector()
        var logger = Observability.makeLogger(label: "test", format: .json, level: .info, sink: collector.sink)
        logger[metadataKey: "server.instance"] = "a"
        let client = InMemoryClient(responder: router.wrapped(by: RequestLogMiddleware()), logger: logger)
        #expect(await client.send(.get, "/healthz").status == .ok)
        let line = try #require(collector.lines.first { $0.contains("\"http.request\"") })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["server.instance"] as? String == "a")
        #expect(object["route"] as? String == "/healthz")
        #expect(object["http.status"] as? String == "200")
        #expect(object["http.response_bytes"] as? String == "2")
        #expect((object["request.id"] as? String)?.isEmpty == false)
    }

    @Test func theServersLineCarriesEveryField() async throws {
        var router = Router()
        router.post("/v1/patients/{patientId}/samples") { _, _ in .text("stored") }
        let collector = LineCollector()
        let logger = Observability.makeLogger(label: "caresync", format: .text, level: .info, sink: collector.sink)
        let client = InMemoryClient(responder: router.wrapped(by: RequestLogMiddleware()), logger: logger)
        #expect(await client.send(.post, "/v1/patients/P-9/samples", body: Array("abc".utf8)).status == .ok)
        let line = try #require(collector.lines.first)
        for field in ["INFO caresync: http.request http.duration_us=", " http.method=POST http.request_bytes=3 http.response_bytes=6",
                      " http.status=200 request.id=", " route=/v1/patients/{patientId}/samples"] {
            #expect(line.contains(field), "\(line)")
        }
        #expect(!line.contains("P-9"))
        #expect(line.count > 24 && line.dropFirst(24).hasPrefix(" INFO") && line.prefix(24).hasSuffix("Z"), "\(line)")
    }

    @Test func aLevelBelowTheLoggersWritesNothing() async {
        var router = Router()
        router.get("/healthz") { _, _ in .text("ok") }
        let collector = LineCollector()
        let logger = Observability.makeLogger(label: "caresync", format: .text, level: .warning, sink: collector.sink)
        let client = InMemoryClient(responder: router.wrapped(by: RequestLogMiddleware()), logger: logger)
        #expect(await client.send(.get, "/healthz").status == .ok)
        #expect(collector.lines.isEmpty)
    }

    @Test func timestampsAreWrittenDigitByDigit() {
        #expect(LogTimestamp.format(seconds: 0, milliseconds: 0) == "1970-01-01T00:00:00.000Z")
        #expect(LogTimestamp.format(seconds: 4_102_444_799, milliseconds: 999) == "2099-12-31T23:59:59.999Z")
        #expect(LogTimestamp.format(Date(timeIntervalSince1970: 1_592_472_600.5)) == "2020-06-18T09:30:00.500Z")
        #expect(LogTimestamp.now().count == 24)
    }
}
