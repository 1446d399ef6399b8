import Foundation
import Testing
@testable import CareSyncClient
@testable import HealthExport

/// `caresync-agent import` keeps what the export says: every metadata entry, the device, correlations as the
/// server defines them; compared field by field with the fixture the XML was written from.
@Suite struct ImportFidelityTests {
    /// `device` as the agent keeps it: the description without its `<<HKDevice: 0x…>, ` address and final `>`.
    static func device(_ text: String) -> String {
        let rest = text[text.range(of: ">, ")!.upperBound...]
        return String(rest.dropLast())
    }

    /// The metadata the XML gives a record (without `importDigest`): `sourceName`, `device`, `wasUserEntered`
    /// from `HKWasUserEntered`, every other entry as written, and `extra` (a food correlation's).
    static func metadata(_ record: ExportFixture.Record, device: String? = nil, extra: [(String, String)] = []) -> [String: MetadataValue] {
        var expected: [String: MetadataValue] = ["sourceName": .string(record.source)]
        if let device = record.device ?? device { expected["device"] = .string(Self.device(device)) }
        for (key, value) in record.metadata + extra {
            expected[key == "HKWasUserEntered" ? "wasUserEntered" : key] = key == "HKWasUserEntered" ? .bool(value == "1") : .string(value)
        }
        return expected
    }

    /// The one stored sample of `record`'s type, source and start (and value, where several share them).
    static func stored(_ record: ExportFixture.Record, in samples: [Sample], byValue: Bool = false) throws -> Sample {
        let matches = samples.filter {
            $0.type == RecordMapper.typeName(record.type) && $0.metadata["sourceName"] == .string(record.source)
                && $0.start == RecordMapper.date(record.start) && (!byValue || $0.value == Double(record.value))
        }
        try #require(matches.count == 1, "\(matches.count) samples for \(record.type) at \(record.start)")
        return matches[0]
    }

    /// Expects `sample` to hold what the XML says of `record`, with `metadata` (besides `importDigest`).
    static func check(_ sample: Sample, _ record: ExportFixture.Record, metadata: [String: MetadataValue]) {
        #expect(sample.value == Double(record.value), "\(record.type) value")
        #expect(sample.unit == record.unit, "\(record.type) unit")
        #expect(sample.start == RecordMapper.date(record.start) && sample.end == RecordMapper.date(record.end), "\(record.type) dates")
        #expect(sample.metadata.filter { $0.key != "importDigest" } == metadata, "\(record.type) metadata")
        #expect(sample.metadata["importDigest"] != nil)
        #expect(sample.components == nil)
    }

    /// Expects the server to hold exactly the samples of `fixture`, field by field.
    static func expectEqual(_ samples: [Sample], _ fixture: ExportFixture) throws {
        #expect(samples.count == fixture.records.count + fixture.correlations.count)  // one sample per correlation
        for record in fixture.records where record.source != "Chatty" {
            check(try stored(record, in: samples), record, metadata: metadata(record))
        }
        let pressure = fixture.correlations[0]
        let pairs = samples.filter { $0.type == "bloodPressure" }
        try #require(pairs.count == 1)
        #expect(pairs[0].components == ["bloodPressureSystolic": 120, "bloodPressureDiastolic": 80] && pairs[0].unit == "mmHg")
        #expect(pairs[0].start == RecordMapper.date(pressure.start) && pairs[0].end == RecordMapper.date(pressure.start))
        var pairMetadata: [String: MetadataValue] = ["sourceName": .string(pressure.source), "device": .string(device(pressure.device!))]
        for (key, value) in pressure.metadata { pairMetadata[key] = .string(value) }
        #expect(pairs[0].metadata.filter { $0.key != "importDigest" } == pairMetadata)
        #expect(!samples.contains { $0.type == "bloodPressureSystolic" || $0.type == "bloodPressureDiastolic" })
        let foods = samples.filter { $0.type == "food" }
        #expect(foods.count == fixture.correlations.count - 1, "one food sample per food correlation")
        #expect(!samples.contains { $0.type.hasPrefix("dietary") || $0.metadata["foodCorrelation"] != nil })
        for food in fixture.correlations.dropFirst() {
            let name = food.metadata.first { $0.0 == "HKFoodType" }?.1
            let matches = foods.filter { $0.metadata["HKFoodType"] == name.map(MetadataValue.string) }
            try #require(matches.count == 1, "\(matches.count) foods named \(name ?? "")")
            try checkFood(matches[0], food)
        }
    }

    /// Expects `sample` to be the one `food` sample of `food`: its records' values and units as components, its
    /// dates, and the correlation's metadata with its records'.
    static func checkFood(_ sample: Sample, _ food: ExportFixture.Correlation) throws {
        let parts = try food.records.map { record in (RecordMapper.typeName(record.type), try #require(Double(record.value))) }
        #expect(sample.components == Dictionary(uniqueKeysWithValues: parts), "\(food.metadata) components")
        #expect(sample.componentUnits == Dictionary(uniqueKeysWithValues: food.records.map { (RecordMapper.typeName($0.type), $0.unit ?? "") }))
        #expect(sample.value == Double(food.records.count) && sample.unit == nil)
        #expect(sample.start == RecordMapper.date(food.start) && sample.end == RecordMapper.date(food.start))
        var expected: [String: MetadataValue] = ["sourceName": .string(food.source)]
        if let device = food.device { expected["device"] = .string(Self.device(device)) }
        for (key, value) in food.records.flatMap(\.metadata) + food.metadata { expected[key] = .string(value) }
        #expect(sample.metadata.filter { $0.key != "importDigest" } == expected, "\(food.metadata) metadata")
    }

    @Test func everyMetadataEntryTheDeviceAndBothCorrelationsArriveAsTheXMLWroteThem() async throws {
        let server = try LiveServer()
        let device = server.device()
        let fixture = ExportFixture.make()
        let summary = try await HealthImporter(client: device, patient: "alice").run(file: try fixture.write(), stateFile: nil)
        #expect(summary.records == fixture.records.count + fixture.correlations.count && summary.correlations == 3)
        #expect(summary.inserted == fixture.records.count + 3 && summary.rejected.isEmpty && summary.unreadable.isEmpty)
        let samples = Array(try await Story.serverSamples(device).values)
        try Self.expectEqual(samples, fixture)

        // 70 entries and one of 4,100 bytes: what fits is kept (64 keys with sourceName and importDigest),
        // the rest is counted by key.
        let chatty = try #require(fixture.records.first { $0.source == "Chatty" })
        let crowded = try Self.stored(chatty, in: samples)
        #expect(crowded.metadata.count == 64 && crowded.metadata["Chatty.k61"] == .string("v61"))
        var dropped = ["Chatty.blob": 1]
        for i in 62..<70 { dropped[String(format: "Chatty.k%02d", i)] = 1 }
        #expect(summary.metadataDropped == dropped)
        #expect(summary.description.contains("metadata entries over the server's limits (not sent): 9"))
    }

    @Test func reimportingAnEditedExportLeavesTheServerEqualToIt() async throws {
        let server = try LiveServer()
        let device = server.device()
        let importer = HealthImporter(client: device, patient: "alice")
        _ = try await importer.run(file: try ExportFixture.make().write(), stateFile: nil)
        let before = try await Story.serverSamples(device).values.first { $0.type == "heartRate" && $0.value == 72 }

        // The heart rate edited 72 → 75, the second body-fat reading removed.
        let edited = ExportFixture.make(heartRate: "75", withSecondFat: false)
        let summary = try await importer.run(file: try edited.write(), stateFile: nil)
        #expect(summary.inserted == 0 && summary.replaced == 1 && summary.deleted == 1)
        let samples = Array(try await Story.serverSamples(device).values)
        try Self.expectEqual(samples, edited)
        let after = try Self.stored(edited.records[0], in: samples)
        #expect(after.syncIdentifier == before?.syncIdentifier && before?.syncVersion == 1 && after.syncVersion == 2)

        let again = try await importer.run(file: try edited.write(), stateFile: nil)
        #expect(again.inserted == 0 && again.replaced == 0 && again.deleted == 0 && again.ignored == samples.count)
    }

    @Test func addOnlyAddsTheEditedReadingBesideTheOldOneAndAFullImportThenConverges() async throws {
        let server = try LiveServer()
        let first = try ExportFixture.make().write(), edited = ExportFixture.make(heartRate: "75", withSecondFat: false)
        for file in [first, try edited.write()] {
            let (status, out, err) = try AgentRun.run(["import", file.path, "--patient", "alice", "--add-only", "--quiet"], server: server)
            #expect(status == 0, "\(err)")
            #expect(out.contains("deleted (no longer in the export): 0"))
        }
        let added = try await Story.serverSamples(server.device()).values
        #expect(added.filter { $0.type == "heartRate" && $0.start == RecordMapper.date("2020-06-16 10:00:00 -0700") }
            .map(\.value).sorted() == [72, 75])
        #expect(added.filter { $0.type == "bodyFatPercentage" }.count == 2)

        let (status, out, err) = try AgentRun.run(["import", try edited.write().path, "--patient", "alice", "--quiet"], server: server)
        #expect(status == 0, "\(err)")
        #expect(out.contains("deleted (no longer in the export):"))
        try Self.expectEqual(Array(try await Story.serverSamples(server.device()).values), edited)
    }

    /// `xml` with every `-0700` date written in `+0100` instead, as a phone exporting in Europe writes it.
    static func exportedInEurope(_ xml: String) throws -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 3_600)
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
        let pattern = try NSRegularExpression(pattern: "[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2} -0700")
        var text = xml
        for match in pattern.matches(in: xml, range: NSRange(xml.startIndex..., in: xml)).reversed() {
            let range = Range(match.range, in: xml)!
            text.replaceSubrange(range, with: formatter.string(from: RecordMapper.date(String(xml[range]))!))
        }
        return text
    }

    @Test func theSameExportWrittenInAnotherTimeZoneChangesNothing() async throws {
        let server = try LiveServer()
        let device = server.device()
        let importer = HealthImporter(client: device, patient: "alice")
        let fixture = ExportFixture.make()
        let first = try await importer.run(file: try fixture.write(), stateFile: nil)
        let travelled = try Self.exportedInEurope(fixture.xml)
        #expect(travelled.contains("2020-06-16 18:00:00 +0100") && !travelled.contains("-0700\""))
        let again = try await importer.run(file: try ImportTests.write(travelled), stateFile: nil)
        #expect(again.inserted == 0 && again.replaced == 0 && again.deleted == 0 && again.ignored == first.inserted)
        try Self.expectEqual(Array(try await Story.serverSamples(device).values), fixture)
    }

    @Test func twoIdenticalFoodsLoggedAtOneTimeStayTwoFoods() async throws {
        let server = try LiveServer()
        let device = server.device()
        let time = "2020-06-16 16:00:00 -0700"
        let banana = ExportFixture.Correlation(
            type: "HKCorrelationTypeIdentifierFood", source: "FoodLog", start: time, device: nil, metadata: [("HKFoodType", "Banana")],
            records: [.make("DietaryEnergyConsumed", source: "FoodLog", unit: "kcal", start: time, value: "105"),
                      .make("DietaryPotassium", source: "FoodLog", unit: "mg", start: time, value: "422")])
        let fixture = ExportFixture(records: [], correlations: [banana, banana])
        let importer = HealthImporter(client: device, patient: "alice")
        #expect(try await importer.run(file: try fixture.write(), stateFile: nil).inserted == 2)
        let foods = Array(try await Story.serverSamples(device).values)
        #expect(foods.count == 2 && Set(foods.map(\.syncIdentifier)).count == 2)
        for food in foods {  // in the server's canonical units: potassium in g
            #expect(food.componentUnits == ["dietaryEnergyConsumed": "kcal", "dietaryPotassium": "g"] && food.value == 2)
            #expect(food.components?["dietaryEnergyConsumed"] == 105 && abs((food.components?["dietaryPotassium"] ?? 0) - 0.422) < 1e-12)
            #expect(food.metadata["HKFoodType"] == .string("Banana") && food.metadata["sourceName"] == .string("FoodLog"))
        }

        let again = try await importer.run(file: try fixture.write(), stateFile: nil)
        #expect(again.inserted == 0 && again.replaced == 0 && again.deleted == 0 && again.ignored == 2)
    }
}
