import CareSyncCore
import Foundation
import Testing

/// Builders and feed helpers shared by the contract tests.
enum Contract {
    static let patient = "patient-1"
    static let device = "org.example.phone"
    static let therapist = "org.example.therapist"
    /// 2020-06-18T10:00:00Z.
    static let t0 = Date(timeIntervalSince1970: 1_592_474_400)
    static let hour: TimeInterval = 3600
    static let day: TimeInterval = 86_400

    static func makeInput(uuid: UUID? = nil, type: SampleType = .stepCount, value: Double = 100, start: Date = t0,
                          minutes: Double = 10, syncIdentifier: String? = nil, syncVersion: Int64? = nil,
                          metadata: [String: MetadataValue] = [:]) -> SampleInput {
        SampleInput(uuid: uuid, type: type, value: value, start: start, end: start.addingTimeInterval(minutes * 60),
                    syncIdentifier: syncIdentifier, syncVersion: syncVersion, metadata: metadata)
    }

    /// A blood pressure reading (mmHg) at `start`, an instant as cuffs record it.
    static func makePressure(_ systolic: Double, _ diastolic: Double, uuid: UUID? = nil, start: Date = t0,
                             syncIdentifier: String? = nil, syncVersion: Int64? = nil) -> SampleInput {
        SampleInput(uuid: uuid, type: .bloodPressure, value: systolic, secondValue: diastolic, start: start, end: start,
                    syncIdentifier: syncIdentifier, syncVersion: syncVersion)
    }

    /// A six-minute-walk test in a weekly report, at 10:00 local on `day` of June 2020 in Los Angeles.
    static func makeWalk(day: Int, meters: Double) -> WeeklyReportSampleInput {
        let start = t0.addingTimeInterval(Double(day - 18) * Self.day + 7 * hour)
        return WeeklyReportSampleInput(key: String(format: "2020-06-%02d", day),
                                       sample: makeInput(type: .sixMinuteWalkTestDistance, value: meters, start: start, minutes: 6))
    }

    static func makeReport(_ id: String = "report-2020-W25", version: Int64, walks: [(Int, Double)]) -> WeeklyReportInput {
        WeeklyReportInput(syncIdentifier: id, syncVersion: version, weekStart: CalendarDay(year: 2020, month: 6, day: 15),
                          timeZone: "America/Los_Angeles", samples: walks.map { makeWalk(day: $0.0, meters: $0.1) })
    }

    /// Everything a feed reader saw, following `anchor` until `hasMore` is false.
    struct Read {
        var samples: [Sample] = []
        var deletedObjects: [DeletedObject] = []
        var anchor: Anchor
        var pages = 0
        var sampleUUIDs: Set<UUID> { Set(samples.map(\.uuid)) }
        var deletedUUIDs: Set<UUID> { Set(deletedObjects.map(\.uuid)) }
    }

    /// Reads the whole feed from `anchor`, checking that no page is over the limit and no uuid repeats.
    static func readAll(_ store: any SyncStore, patient: String = patient, from anchor: Anchor? = nil, limit: Int = 500,
                        types: Set<SampleType>? = nil, source: String? = nil,
                        sourceLocation: SourceLocation = #_sourceLocation) throws -> Read {
        var read = Read(anchor: anchor ?? Anchor(storeID: store.storeID, sequence: 0))
        var next = anchor
        while true {
            let page = try store.changes(ChangeQuery(patient: patient, anchor: next, types: types, limit: limit, source: source))
            #expect(page.samples.count + page.deletedObjects.count <= limit, sourceLocation: sourceLocation)
            read.samples += page.samples
            read.deletedObjects += page.deletedObjects
            read.anchor = page.anchor
            read.pages += 1
            next = page.anchor
            guard page.hasMore else { break }
            #expect(!page.samples.isEmpty || !page.deletedObjects.isEmpty, "a page with more after it is empty",
                    sourceLocation: sourceLocation)
            if read.pages > 100_000 { Issue.record("feed does not end", sourceLocation: sourceLocation); break }
        }
        let uuids = read.samples.map(\.uuid) + read.deletedObjects.map(\.uuid)
        #expect(Set(uuids).count == uuids.count, "a uuid came twice in one read", sourceLocation: sourceLocation)
        return read
    }

    /// Expects `body` to throw exactly `error`.
    /// `.conflict` and `.validationFailed` match whatever their payload.
    static func expectError<T>(_ expected: SyncError, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> T) {
        do {
            _ = try body()
            Issue.record("expected \(expected), nothing thrown", sourceLocation: sourceLocation)
        } catch let thrown as SyncError {
            switch (thrown, expected) {
            case (.conflict, .conflict), (.validationFailed, .validationFailed): break
            default: #expect(thrown == expected, sourceLocation: sourceLocation)
            }
        } catch {
            Issue.record("expected \(expected), got \(error)", sourceLocation: sourceLocation)
        }
    }
}

extension Contract {
    /// A food (HealthKit's food correlation) of canonical component values, at `start`.
    static func makeFood(_ components: [SampleType: Double], uuid: UUID? = nil, start: Date = t0,
                         syncIdentifier: String? = nil, syncVersion: Int64? = nil) -> SampleInput {
        SampleInput(uuid: uuid, type: .food, value: Double(components.count), components: components, start: start, end: start,
                    syncIdentifier: syncIdentifier, syncVersion: syncVersion, metadata: ["HKFoodType": .string("Bagel")])
    }
}
