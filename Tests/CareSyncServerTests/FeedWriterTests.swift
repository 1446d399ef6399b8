import CareSyncCore
import CareSyncReferenceModel
import Foundation
import Testing
@testable import CareSyncServer

/// The byte-level feed writer says exactly what the generic encoder says.
@Suite struct FeedWriterTests {
    @Test func pageBytesEqualTheGenericEncoding() throws {
        let samples = [
            Sample(uuid: UUID(), type: .sixMinuteWalkTestDistance, value: 450.25, start: Date(timeIntervalSince1970: 1_592_499_600.5),
                   end: Date(timeIntervalSince1970: 1_592_499_960), syncIdentifier: "r/2020-06-18", syncVersion: 2,
                   source: "org.example \"therapist\"", metadata: ["wasUserEntered": .bool(true), "note": .string("é\n"), "n": .number(3)]),
            Sample(uuid: UUID(), type: .sleepAnalysis, value: 1, start: Date(timeIntervalSince1970: 0), end: Date(timeIntervalSince1970: 60),
                   syncIdentifier: nil, syncVersion: nil, source: "s"),
        ]
        let deleted = [DeletedObject(uuid: UUID(), type: .stepCount, syncIdentifier: nil, syncVersion: nil, source: "s",
                                     start: Date(timeIntervalSince1970: 10), end: Date(timeIntervalSince1970: 20), deletedAt: Date(timeIntervalSince1970: 30))]
        let page = ChangeSet(samples: samples, deletedObjects: deleted, anchor: Anchor(storeID: "store", sequence: 7), hasMore: true)
        for unit in [nil, HealthUnit.named("km")] {
            let generic: JSONValue = [
                "samples": .array(samples.map { SampleWire.encode($0, unit: unit) }),
                "deletedObjects": .array(deleted.map(SampleWire.encode)),
                "anchor": .string(page.anchor.encoded), "hasMore": true,
            ]
            #expect(FeedWriter.page(page, anchor: page.anchor.encoded, unit: unit) == generic.serialized())
        }
    }

    /// Random pages, large enough to be written in parts on several cores, say what the generic encoder says:
    /// timestamps from before 1970 to past year 9999, repeated and changing metadata, escapes, correlations, units.
    @Test func randomPagesEqualTheGenericEncoding() async {
        var random = SeededGenerator(seed: 13)
        let sources = ["org.example.watch", "caresync.device.858e54dca255b504", "quote \" and \\ and \n"]
        let metadatas: [[String: MetadataValue]] = [[:], ["wasUserEntered": .bool(false)],
                                                    ["note": .string("tab\there"), "n": .number(2.5), "big": .number(1e15)]]
        let types: [SampleType] = [.stepCount, .heartRate, .sleepAnalysis, .bloodPressure, .bodyMass, .walkingSpeed]
        let days: [Int64] = [-719_528, -1, 0, 18_262, 2_932_896, 2_932_897, 3_000_000]  // year 0 … past 9999
        var samples: [Sample] = []
        for n in 0..<2_100 {
            let type = types[Int(random.next() % UInt64(types.count))]
            let day = days[n / 50 % days.count]
            let startMs = day * 86_400_000 + Int64(random.next() % 86_400_000)
            let startDate = Date(timeIntervalSince1970: Double(startMs) / 1000)
            let endDate = Date(timeIntervalSince1970: Double(startMs + Int64(random.next() % 90_000_000)) / 1000)
            let value = n % 3 == 0 ? Double(random.next() % 200) : Double(random.next() % 100_000) / 7
            let synced = n % 4 == 0
            samples.append(Sample(uuid: UUID(), type: type, value: value, secondValue: type == .bloodPressure ? value / 2 : nil,
                                  start: startDate, end: endDate, syncIdentifier: synced ? "r/\(n)" : nil,
                                  syncVersion: synced ? Int64(n) : nil, source: sources[n / 7 % sources.count],
                                  metadata: metadatas[n / 3 % metadatas.count]))
        }
        let page = ChangeSet(samples: samples, deletedObjects: [], anchor: Anchor(storeID: "store", sequence: 9), hasMore: false)
        for unit in [nil, HealthUnit.named("kg"), HealthUnit.named("count/min")] {
            let generic: JSONValue = [
                "samples": .array(samples.map { SampleWire.encode($0, unit: unit) }), "deletedObjects": [],
                "anchor": .string(page.anchor.encoded), "hasMore": false,
            ]
            let expected = generic.serialized()
            for cores in 1...3 {
                await Task.yield()  // a long synchronous test would hold one of the few cooperative threads
                #expect(FeedWriter.page(page, anchor: page.anchor.encoded, unit: unit, cores: cores) == expected, "unit \(unit?.symbol ?? "canonical"), cores \(cores)")
            }
        }
    }

    @Test func uuidTextIsUUIDString() {
        for uuid in [UUID(), UUID(), UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
                     UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255))] {
            var out = ByteBuffer(capacity: 1)
            JSONValue.writeUUIDString(uuid, into: &out)
            #expect(String(decoding: out.bytes(), as: UTF8.self) == uuid.uuidString)
        }
    }

    @Test(arguments: [Int64.min, -1_000_000_007, -10, -1, 0, 1, 9, 10, 99, 100, 1_592_499_600_500, Int64.max])
    func integersAreWrittenAsSwiftPrintsThem(value: Int64) {
        var out = ByteBuffer(capacity: 1)
        JSONValue.writeInteger(value, into: &out)
        #expect(String(decoding: out.bytes(), as: UTF8.self) == String(value))
    }

    @Test func stringsWithAndWithoutEscapesAreWrittenAlike() {
        for text in ["plain", "", "é 🦶", "quote \" back \\ nl \n tab \t ctl \u{01}"] {
            var fast = ByteBuffer(capacity: 1)
            JSONValue.writeString(text, into: &fast)
            let parsed = try? JSONSerialization.jsonObject(with: Data(fast.bytes()), options: .fragmentsAllowed) as? String
            #expect(parsed == text, "\(text)")
        }
    }

    @Test func upsertReplyBytesEqualTheGenericEncoding() {
        let results = [
            UpsertItemResult(index: 0, uuid: UUID(), outcome: .inserted),
            UpsertItemResult(index: 1, uuid: UUID(), outcome: .replaced),
            UpsertItemResult(index: 12, uuid: UUID(), outcome: .ignored(.olderVersion)),
        ]
        let batch = UpsertBatchResult(anchor: Anchor(storeID: "store", sequence: 99), results: results)
        let generic: JSONValue = [
            "anchor": .string(batch.anchor.encoded),
            "results": .array(results.map { r in
                var o: [String: JSONValue] = ["index": .number(Double(r.index)), "uuid": .string(r.uuid.uuidString)]
                switch r.outcome {
                case .inserted: o["outcome"] = "inserted"
                case .replaced: o["outcome"] = "replaced"
                case .ignored(let reason): o["outcome"] = "ignored"; o["reason"] = .string(reason.rawValue)
                }
                return .object(o)
            }),
        ]
        #expect(UpsertReplyWriter.body(batch, anchor: batch.anchor.encoded) == generic.serialized())
    }
}
