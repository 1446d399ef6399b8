import Foundation
import Testing
@testable import CareSyncServer

@Suite struct ConfigurationErrorTests {
    /// Values each key must refuse, as environment or flag text.
    static let badTexts: [(ConfigurationKey, String)] = [
        (.port, "abc"), (.port, "70000"), (.port, "-1"), (.port, "80.5"), (.port, ""),
        (.host, ""), (.host, "local host"), (.database, "   "), (.migrationsDirectory, ""),
        (.sqliteSynchronous, "sometimes"), (.limitsBodyBytes, "0"), (.limitsBodyBytes, "8MiB"),
        (.limitsSamplesPerRequest, "0"), (.limitsReportsPerPatient, "0"), (.limitsRequestLineBytes, "10"), (.limitsHeaderBytes, "-5"),
        (.limitsHeaderCount, "0"), (.timeoutsHeaderReadSeconds, "0"), (.timeoutsBodyReadSeconds, "-1"),
        (.timeoutsIdleSeconds, "nan"), (.timeoutsWriteSeconds, "soon"), (.timeoutsWriteSeconds, "100000"),
        (.workers, "-1"), (.maxConnections, "0"), (.gzipThresholdBytes, "-1"), (.gzipLevel, "0"), (.gzipLevel, "10"),
        (.retentionTombstoneDays, "0"), (.retentionIdempotencyHours, "23"), (.alertsEvaluationSeconds, "-1"),
        (.logLevel, "loud"), (.logFormat, "xml"),
    ]

    @Test(arguments: badTexts)
    func badEnvironmentValueNamesKeyAndVariable(key: ConfigurationKey, text: String) {
        let variable = key.environmentVariable
        let error = #expect(throws: ConfigurationError.self) {
            try Configuration.load(environment: [variable: text])
        }
        guard case .invalidValue(let name, let value, let source, _)? = error else {
            Issue.record("expected invalidValue, got \(String(describing: error))")
            return
        }
        #expect(name == key.rawValue)
        #expect(value == text)
        #expect(source == .environment(variable: variable))
        #expect(error!.description.contains(key.rawValue))
        #expect(error!.description.contains(variable))
        #expect(!error!.description.contains("\n"))
    }

    @Test(arguments: badTexts)
    func badFlagValueNamesKeyAndFlag(key: ConfigurationKey, text: String) {
        let error = #expect(throws: ConfigurationError.self) {
            try Configuration.load(environment: [:], flags: [key: text])
        }
        #expect(error?.key == key.rawValue)
        #expect(error?.description.contains("flag --\(key.flagName)") == true)
    }

    /// JSON values of the wrong type, which a file must not get away with.
    static let badJSON: [(ConfigurationKey, String)] = [
        (.port, #""8080""#), (.port, "true"), (.port, "null"), (.port, "[8080]"), (.port, "8080.5"),
        (.host, "127"), (.host, "{}"), (.logLevel, "3"), (.logFormat, "false"),
        (.timeoutsIdleSeconds, #""60""#), (.limitsBodyBytes, "1e40"),
    ]

    @Test(arguments: badJSON)
    func badFileValueNamesKeyAndFile(key: ConfigurationKey, literal: String) throws {
        let file = try TemporaryFile.make(contents: ConfigurationPrecedenceTests.nestedJSON(key: key, literal: literal))
        defer { file.remove() }
        let error = #expect(throws: ConfigurationError.self) {
            try Configuration.load(configFile: file.path, environment: [:])
        }
        #expect(error?.key == key.rawValue)
        #expect(error?.description.contains(file.path) == true)
    }

    @Test(arguments: [
        (#"{"prot": 8080}"#, "prot"),
        (#"{"limits": {"bodyByts": 10}}"#, "limits.bodyByts"),
        (#"{"log": {"level": "info", "colour": true}}"#, "log.colour"),
        (#"{"port": 8080, "limits": 5}"#, "limits"),
    ])
    func unknownOrMisplacedFileKeyIsNamed(json: String, key: String) throws {
        let file = try TemporaryFile.make(contents: json)
        defer { file.remove() }
        let error = #expect(throws: ConfigurationError.self) {
            try Configuration.load(configFile: file.path, environment: [:])
        }
        #expect(error?.key == key)
        #expect(error?.description.contains(" \(key)") == true || error?.description.contains("\"\(key)\"") == true)
    }

    @Test func unknownEnvironmentVariableIsNamed() {
        let error = #expect(throws: ConfigurationError.self) {
            try Configuration.load(environment: ["CARESYNC_PROT": "8080", "HOME": "/root"])
        }
        #expect(error == .unknownKey(key: "CARESYNC_PROT", source: .environment(variable: "CARESYNC_PROT")))
        #expect(error?.description == #"configuration: unknown key "CARESYNC_PROT" (environment variable CARESYNC_PROT)"#)
    }

    @Test func unknownFlagNameIsNamed() {
        let error = #expect(throws: ConfigurationError.self) {
            try Configuration.load(environment: [:], namedFlags: ["limits.bodyByts": "10"])
        }
        #expect(error == .unknownKey(key: "limits.bodyByts", source: .flag(name: "limits.bodyByts")))
    }

    @Test func missingMalformedAndNonObjectFilesAreRefused() throws {
        let missing = "/nonexistent-\(UUID().uuidString)/caresync.json"
        #expect(throws: ConfigurationError.unreadableFile(path: missing, reason: "no such file")) {
            try Configuration.load(configFile: missing, environment: [:])
        }
        let malformed = try TemporaryFile.make(contents: #"{"port": 8080,"#)
        defer { malformed.remove() }
        #expect(throws: ConfigurationError.malformedFile(path: malformed.path, reason: "not valid JSON")) {
            try Configuration.load(configFile: malformed.path, environment: [:])
        }
        let array = try TemporaryFile.make(contents: "[1, 2]")
        defer { array.remove() }
        #expect(throws: ConfigurationError.malformedFile(path: array.path, reason: "the top level must be a JSON object")) {
            try Configuration.load(configFile: array.path, environment: [:])
        }
    }

    @Test func commentsAreIgnoredAtEveryLevel() throws {
        let file = try TemporaryFile.make(contents: #"{"$comment": "x", "limits": {"$comment": "y", "headerCount": 7}}"#)
        defer { file.remove() }
        #expect(try Configuration.load(configFile: file.path, environment: [:]).limits.headerCount == 7)
    }

    @Test func aBadFlagIsReportedEvenWhenTheFileAndEnvironmentAreGood() throws {
        let file = try TemporaryFile.make(contents: #"{"port": 1}"#)
        defer { file.remove() }
        let error = #expect(throws: ConfigurationError.self) {
            try Configuration.load(configFile: file.path, environment: ["CARESYNC_PORT": "2"], flags: [.port: "x"])
        }
        #expect(error == .invalidValue(key: "port", value: "x", source: .flag(name: "port"),
                                       expected: "an integer in 0...65535"))
    }
}
