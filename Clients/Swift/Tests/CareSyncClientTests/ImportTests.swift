import Foundation
import Testing
@testable import CareSyncClient
@testable import HealthExport

/// `caresync-agent import`: an Apple Health export pushed as samples, again and again.
@Suite struct ImportTests {
    /// An `export.xml` like the Health app writes: `steps` step records without sync metadata, one
    /// heart rate, body mass with sync metadata at `massVersion`, a sleep record, an unknown type, a blood
    /// pressure correlation (its records also at the top level, as the Health app writes them) and a workout.
    static func export(steps: Int, massVersion: Int = 1) -> String {
        var xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE HealthData [<!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout)*)>]>
        <HealthData locale="en_US">
         <ExportDate value="2020-06-21 10:00:00 -0700"/>
         <Me HKCharacteristicTypeIdentifierDateOfBirth="1960-01-01"/>

        """
        for i in 0..<steps {
            let hour = String(format: "%02d", i % 24)
            let day = String(format: "%02d", 1 + i / 24)
            xml += """
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Alice’s iPhone" unit="count" creationDate="2020-06-\(day) \(hour):59:00 -0700" startDate="2020-06-\(day) \(hour):00:00 -0700" endDate="2020-06-\(day) \(hour):30:00 -0700" value="\(100 + i)"/>

            """
        }
        xml += """
         <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Watch" unit="count/min" startDate="2020-06-16 10:00:00 -0700" endDate="2020-06-16 10:00:00 -0700" value="72">
          <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="1"/>
         </Record>
         <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Scale" unit="lb" startDate="2020-06-16 07:00:00 -0700" endDate="2020-06-16 07:00:00 -0700" value="\(150 + massVersion)">
          <MetadataEntry key="HKMetadataKeySyncIdentifier" value="scale-2020-06-16"/>
          <MetadataEntry key="HKMetadataKeySyncVersion" value="\(massVersion)"/>
          <MetadataEntry key="HKWasUserEntered" value="1"/>
         </Record>
         <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Watch" startDate="2020-06-16 01:00:00 -0700" endDate="2020-06-16 02:30:00 -0700" value="HKCategoryValueSleepAnalysisAsleepCore"/>
         <Record type="HKQuantityTypeIdentifierMadeUpThing" sourceName="Watch" unit="count" startDate="2020-06-16 01:00:00 -0700" endDate="2020-06-16 02:30:00 -0700" value="3"/>
         <Record type="HKQuantityTypeIdentifierBloodPressureSystolic" sourceName="Cuff" unit="mmHg" startDate="2020-06-16 08:00:00 -0700" endDate="2020-06-16 08:00:00 -0700" value="120"/>
         <Record type="HKQuantityTypeIdentifierBloodPressureDiastolic" sourceName="Cuff" unit="mmHg" startDate="2020-06-16 08:00:00 -0700" endDate="2020-06-16 08:00:00 -0700" value="80"/>
         <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Cuff" startDate="2020-06-16 08:00:00 -0700" endDate="2020-06-16 08:00:00 -0700">
          <Record type="HKQuantityTypeIdentifierBloodPressureSystolic" sourceName="Cuff" unit="mmHg" startDate="2020-06-16 08:00:00 -0700" endDate="2020-06-16 08:00:00 -0700" value="120"/>
          <Record type="HKQuantityTypeIdentifierBloodPressureDiastolic" sourceName="Cuff" unit="mmHg" startDate="2020-06-16 08:00:00 -0700" endDate="2020-06-16 08:00:00 -0700" value="80"/>
         </Correlation>
         <Workout workoutActivityType="HKWorkoutActivityTypeWalking" duration="30" startDate="2020-06-16 09:00:00 -0700" endDate="2020-06-16 09:30:00 -0700"/>
        </HealthData>

        """
        return xml
    }

    static func write(_ xml: String) throws -> URL {
        let dir = try ScratchFolder.make("export")
        let file = dir.appendingPathComponent("export.xml")
        try Data(xml.utf8).write(to: file)
        return file
    }

    @Test func importingTwiceStoresNothingNewAndANewerExportOnlyTheDifference() async throws {
        let server = try LiveServer()
        let device = server.device()
        let importer = HealthImporter(client: device, patient: "alice", batchSize: 40)
        let file = try Self.write(Self.export(steps: 100))
        let state = file.appendingPathExtension("caresync-import")

        let first = try await importer.run(file: file, stateFile: state)
        #expect(first.records == 105 && first.correlations == 1)
        #expect(first.inserted == 104 && first.ignored == 0 && first.rejected.isEmpty && first.unreadable.isEmpty)
        #expect(first.unknownTypes == ["HKQuantityTypeIdentifierMadeUpThing": 1])
        #expect(first.skippedElements["Correlation"] == nil && first.skippedElements["Workout"] == 1)
        #expect(!FileManager.default.fileExists(atPath: state.path), "the resume state outlived a finished import")
        let stored = try await Story.serverSamples(device)
        #expect(stored.count == 104)
        let mass = try #require(stored.values.first { $0.type == "bodyMass" })
        #expect(mass.syncIdentifier == "scale-2020-06-16" && mass.syncVersion == 1 && mass.metadata["wasUserEntered"] == .bool(true))
        #expect(abs(mass.value - 151 * 0.45359237) < 1e-6 && mass.unit == "kg")
        #expect(stored.values.first { $0.type == "sleepAnalysis" }?.value == 3)
        #expect(stored.values.first { $0.type == "heartRate" }?.start == Story.date("2020-06-16T17:00:00Z"))

        let again = try await importer.run(file: file, stateFile: state)
        #expect(again.inserted == 0 && again.replaced == 0 && again.ignored == 104 && again.deleted == 0)

        let newer = try Self.write(Self.export(steps: 130, massVersion: 2))
        let third = try await importer.run(file: newer, stateFile: newer.appendingPathExtension("caresync-import"))
        #expect(third.inserted == 30 && third.replaced == 1 && third.ignored == 103 && third.deleted == 0)
        #expect(try await Story.serverSamples(device).count == 134)
    }

    @Test func recordsTheServerRefusesAreCountedAndTheRestOfTheirBatchIsStored() async throws {
        let server = try LiveServer()
        let device = server.device()
        let bad = #"<Record type="HKQuantityTypeIdentifierStepCount" sourceName="Bad" unit="kg" startDate="2020-06-16 10:00:00 -0700" endDate="2020-06-16 11:00:00 -0700" value="5"/>"#
        let xml = Self.export(steps: 10).replacingOccurrences(of: "</HealthData>", with: bad + "\n</HealthData>")
        let summary = try await HealthImporter(client: device, patient: "alice").run(file: try Self.write(xml), stateFile: nil)
        #expect(summary.rejected.values.reduce(0, +) == 1 && summary.rejected.keys.first?.hasPrefix("unit:") == true)
        #expect(summary.inserted == 14)
        #expect(try await Story.serverSamples(device).count == 14)
    }

    @Test func anInterruptedImportResumesPastWhatItPushed() async throws {
        let server = try LiveServer()
        let device = server.device()
        let file = try Self.write(Self.export(steps: 100))
        let state = file.appendingPathExtension("caresync-import")
        try Data("60".utf8).write(to: state)   // an earlier run pushed the first 60 records, then died
        let resumed = try await HealthImporter(client: device, patient: "alice", batchSize: 40).run(file: file, stateFile: state)
        #expect(resumed.resumedPast == 60 && resumed.sent == 44)
        #expect(try await Story.serverSamples(device).count == 44)
    }

    @Test(arguments: [
        ("HKQuantityTypeIdentifierStepCount", "stepCount"), ("HKCategoryTypeIdentifierSleepAnalysis", "sleepAnalysis"),
    ])
    func healthKitIdentifiersLoseTheirPrefix(identifier: String, type: String) {
        #expect(RecordMapper.typeName(identifier) == type)
    }

    @Test func typesMatchTheCatalogueWhateverTheCaseOfTheirInitials() throws {
        let mapper = RecordMapper(types: [TypeInfo(identifier: "vo2Max", kind: "quantity", aggregation: "discreteArithmetic",
                                                   canonicalUnit: "mL/kg*min", allowedValues: nil)])
        let record = HealthRecord(type: "HKQuantityTypeIdentifierVO2Max", sourceName: "Watch", unit: "mL/min·kg",
                                  startDate: "2020-06-16 10:00:00 -0700", endDate: "2020-06-16 10:00:00 -0700", value: "40")
        #expect(try mapper.sample(record).get().draft.type == "vo2Max")
    }

    @Test func exportDatesReadTheirOffset() {
        #expect(RecordMapper.date("2020-06-16 10:00:00 -0700") == Story.date("2020-06-16T17:00:00Z"))
        #expect(RecordMapper.date("2020-06-16 10:00:00 +0530") == Story.date("2020-06-16T04:30:00Z"))
    }
}
