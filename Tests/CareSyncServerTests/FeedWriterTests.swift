import CareSyncCore
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
                "anchor": .string(AnchorWire.encode(page.anchor)), "hasMore": true,
            ]
            #expect(FeedWriter.page(page, unit: unit) == generic.serialized())
        }
    }

    @Test(arguments: [Int64.min, -1_000_000_007, -10, -1, 0, 1, 9, 10, 99, 100, 1_592_499_600_500, Int64.max])
    func integersAreWrittenAsSwiftPrintsThem(value: Int64) {
        var out: [UInt8] = []
        JSONValue.writeInteger(value, into: &out)
        #expect(String(decoding: out, as: UTF8.self) == String(value))
    }

    @Test func stringsWithAndWithoutEscapesAreWrittenAlike() {
        for text in ["plain", "", "é 🦶", "quote \" back \\ nl \n tab \t ctl \u{01}"] {
            var fast: [UInt8] = []
            JSONValue.writeString(text, into: &fast)
            let parsed = try? JSONSerialization.jsonObject(with: Data(fast), options: .fragmentsAllowed) as? String
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
            "anchor": .string(AnchorWire.encode(batch.anchor)),
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
        #expect(UpsertReplyWriter.body(batch) == generic.serialized())
    }
}
