import Foundation
import Testing
@testable import CareSyncClient

/// Parts that need no server: instants, encoding, backoff, the anchor file, the report builder.
@Suite struct OfflineTests {
    @Test(arguments: [
        ("2020-06-18T17:00:00.000Z", "2020-06-18T17:00:00.000Z"),
        ("2020-06-18T10:00:00-07:00", "2020-06-18T17:00:00.000Z"),
        ("2020-06-18T17:00:00.5Z", "2020-06-18T17:00:00.500Z"),
        ("2020-06-18T17:00:00.1239Z", "2020-06-18T17:00:00.123Z"),
        ("1969-12-31T23:59:59.999Z", "1969-12-31T23:59:59.999Z"),
        ("2024-02-29T23:30:00+05:30", "2024-02-29T18:00:00.000Z"),
    ])
    func instantsParseAnyOffsetAndFormatThreeDigitsInUTC(input: String, output: String) throws {
        let date = try #require(Instant.parse(input))
        #expect(Instant.format(date) == output)
    }

    @Test(arguments: ["2020-06-18T17:00:00", "2020-06-18", "2020-06-18T17:00:00.Z", "2020-13-18T17:00:00Z", "2020-06-18T17:00:60Z"])
    func instantsWithoutAnOffsetOrOutOfRangeAreRefused(input: String) {
        #expect(Instant.parse(input) == nil)
    }

    @Test func samplesDecodeAsTheServerWritesThem() throws {
        let json = #"{"end":"2020-06-16T18:00:00.000Z","metadata":{"wasUserEntered":false,"note":"x","n":2},"source":"org.example.phone","start":"2020-06-16T17:00:00.000Z","syncIdentifier":"phone-steps-2020-06-16T10","syncVersion":1,"type":"stepCount","unit":"count","uuid":"01A1FEAB-0030-7FE6-BC0D-FBEAF1C11345","value":1200}"#
        let sample = try JSONDecoder.careSync().decode(Sample.self, from: Data(json.utf8))
        #expect(sample.metadata == ["wasUserEntered": .bool(false), "note": .string("x"), "n": .number(2)])
        #expect(sample.uuid.uuidString == "01A1FEAB-0030-7FE6-BC0D-FBEAF1C11345")
        let encoded = String(decoding: try JSONEncoder.careSync().encode(sample), as: UTF8.self)
        #expect(encoded.contains(#""start":"2020-06-16T17:00:00.000Z""#))
    }

    @Test func pathAndQueryValuesArePercentEncoded() throws {
        let client = CareSyncClient(baseURL: URL(string: "http://h:1/")!, token: "t")
        let request = try client.makeRequest(.init(method: "GET", path: ["v1", "patients", "alice", "weekly-reports", "report/W25"],
                                                   query: [("anchor", "a+b/c="), ("x", "1 2")]))
        #expect(request.url?.absoluteString == "http://h:1/v1/patients/alice/weekly-reports/report%2FW25?anchor=a%2Bb%2Fc%3D&x=1%202")
    }

    @Test func backoffGrowsIsCappedAndHonoursRetryAfter() {
        let policy = RetryPolicy(maxAttempts: 10, baseDelay: .milliseconds(100), maxDelay: .seconds(1))
        for retry in 1...8 {
            let cap = min(Duration.seconds(1), .milliseconds(100) * (1 << (retry - 1)))
            #expect(policy.delay(beforeRetry: retry, retryAfter: nil) <= cap)
            #expect(policy.delay(beforeRetry: retry, retryAfter: 3) >= .seconds(3))
        }
        #expect(RetryPolicy.isRetryable(status: 503) && RetryPolicy.isRetryable(status: 429))
        #expect(!RetryPolicy.isRetryable(status: 422) && !RetryPolicy.isRetryable(status: 404) && !RetryPolicy.isRetryable(status: 409))
    }

    @Test func theFileAnchorStoreReplacesItsFileWhole() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("caresync-anchorstore-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = FileAnchorStore(url: dir.appendingPathComponent("anchor"))
        #expect(try await store.load() == nil)
        try await store.save("AQAAAAAA+/=")
        try await store.save("AQAAAAAB")
        #expect(try await FileAnchorStore(url: store.url).load() == "AQAAAAAB")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["anchor"], "a temporary file was left behind")
        try await store.save(nil)
        #expect(try await store.load() == nil)
    }

    @Test func theBuilderBumpsTheVersionOnlyWhenContentChanged() throws {
        var builder = WeeklyReportBuilder(syncIdentifier: "r", weekStart: "2020-06-15", timeZone: "UTC")
        let start = Instant.parse("2020-06-16T10:00:00Z")!
        builder.set(key: "a", type: "bodyMass", value: 70, unit: "kg", start: start, end: start)
        builder.set(key: "b", type: "bodyMass", value: 71, unit: "kg", start: start, end: start)
        #expect(builder.change(since: nil).nextVersion == 1)
        func stored(_ version: Int, _ values: [String: Double]) -> WeeklyReport {
            WeeklyReport(syncIdentifier: "r", syncVersion: version, weekStart: "2020-06-15", timeZone: "UTC", source: "s",
                         updatedAt: start, samples: values.map { key, value in
                             .init(key: key, sample: Sample(uuid: UUID(), type: "bodyMass", value: value, unit: "kg", start: start,
                                                            end: start, syncIdentifier: "r/\(key)", syncVersion: version, source: "s"))
                         }, chart: [])
        }
        #expect(builder.change(since: stored(4, ["a": 70, "b": 71])).isEmpty)
        let change = builder.change(since: stored(4, ["a": 70, "b": 72, "c": 1]))
        #expect(change.added.isEmpty && change.changed == ["b"] && change.removed == ["c"] && change.nextVersion == 5)
        #expect(builder.change(since: stored(4, ["a": 70])).added == ["b"])
    }
}
