import Foundation
import Logging
import Testing
@testable import CareSyncServer

@Suite struct LogHandlerTests {
    @Test func jsonLinesCarryOperationalMetadataAndParse() throws {
        let collector = LineCollector()
        var logger = Observability.makeLogger(label: "caresync.http", format: .json, level: .info, sink: collector.sink)
        logger[metadataKey: "server.instance"] = "a"
        logger.info("request finished", metadata: [
            "request.id": "r-1", "http.method": "POST", "route": "/v1/patients/{patientId}/samples",
            "status": "200", "duration.ms": "12", "token.id": "t-9",
        ])
        let lines = collector.lines
        #expect(lines.count == 1)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(object["message"] as? String == "request finished")
        #expect(object["level"] as? String == "info")
        #expect(object["logger"] as? String == "caresync.http")
        #expect(object["request.id"] as? String == "r-1")
        #expect(object["route"] as? String == "/v1/patients/{patientId}/samples")
        #expect(object["token.id"] as? String == "t-9")
        #expect(object["server.instance"] as? String == "a")
        let time = try #require(object["time"] as? String)
        #expect(time.hasSuffix("Z") && time.count == 24, "\(time)")
    }

    @Test func phiAndSecretsAreRedactedInBothFormats() throws {
        for format in Configuration.LogFormat.allCases {
            let collector = LineCollector()
            let logger = Observability.makeLogger(label: "t", format: format, level: .debug, sink: collector.sink)
            logger.warning("stored", metadata: [
                "sample.value": "451.25", "patient.id": "P-SECRET-1", "http.path": "/v1/patients/P-SECRET-1/changes",
                "token.secret": "cs_live_abcdef", "request.body": "{\"value\":451.25}", "note": "4521",
                "request.id": "keep-me",
            ])
            let line = try #require(collector.lines.first)
            for leaked in ["451.25", "P-SECRET-1", "cs_live_abcdef", "4521"] {
                #expect(!line.contains(leaked), "\(format) leaked \(leaked): \(line)")
            }
            #expect(line.contains("keep-me"))
            #expect(line.contains("[redacted]"))
        }
    }

    @Test func levelFiltersAndTextIsOneReadableLine() throws {
        let collector = LineCollector()
        let logger = Observability.makeLogger(label: "caresync", format: .text, level: .notice, sink: collector.sink)
        logger.info("hidden")
        logger.error("database unavailable", metadata: ["db.path": "x", "error.code": "SQLITE_CANTOPEN\nfake line"])
        let lines = collector.lines
        #expect(lines.count == 1)
        #expect(lines[0].contains("ERROR caresync: database unavailable"))
        #expect(lines[0].contains(#"error.code="SQLITE_CANTOPEN\nfake line""#))
        #expect(!lines[0].contains("\n"))
        #expect(lines[0].contains("db.path=x"), "\(lines[0])")
    }

    @Test func jsonEscapesControlCharactersAndNestedValues() throws {
        let collector = LineCollector()
        let logger = Observability.makeLogger(label: "x", format: .json, level: .info, sink: collector.sink)
        logger.info("a \"quoted\"\tmessage\u{1}", metadata: [
            "sync.counts": ["inserted": "2", "ignored": "1"], "sync.types": ["stepCount", "heartRate"],
        ])
        let line = try #require(collector.lines.first)
        #expect(!line.contains("\n") && !line.contains("\t") && !line.contains("\u{1}"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["message"] as? String == "a \"quoted\"\tmessage\u{1}")
        #expect((object["sync.counts"] as? [String: String]) == ["inserted": "2", "ignored": "1"])
        #expect((object["sync.types"] as? [String]) == ["stepCount", "heartRate"])
    }

    @Test(arguments: [
        ("request.id", true), ("token.id", true), ("sync.anchor", true), ("sample.value", false),
        ("value", false), ("patient.id", false), ("http.path", false), ("http.target", false),
        ("token.secret", false), ("store.metadata", false), ("db.path", true), ("request.url", false), ("http.peer", false), ("Request.ID", true), ("", false),
    ])
    func privacyPolicy(key: String, allowed: Bool) {
        #expect(LogPrivacy.allows(key) == allowed)
    }

    @Test func timestampFormat() {
        #expect(LogTimestamp.format(Date(timeIntervalSince1970: 1_592_472_600.25)) == "2020-06-18T09:30:00.250Z")
    }
}
