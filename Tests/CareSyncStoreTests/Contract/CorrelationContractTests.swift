import CareSyncCore
import Foundation
import Testing

/// Blood pressure, a correlation: systolic and diastolic are one sample (one uuid, one sync identifier,
/// one change) and are inserted, replaced, ignored, deleted and fed together, on every store.
@Suite struct CorrelationContractTests {
    let p = Contract.patient, src = Contract.device, now = Contract.t0

    func upsert(_ store: any SyncStore, _ inputs: [SampleInput], at offset: TimeInterval = 0) throws -> UpsertBatchResult {
        try store.upsert(inputs, patient: p, source: src, now: now + offset)
    }

    @Test(arguments: ContractStores.all)
    func aPairIsOneSampleInTheFeed(factory: ContractStore) throws {
        let store = try factory.make()
        let before = try store.currentAnchor()
        let up = try upsert(store, [Contract.makePressure(120, 80, syncIdentifier: "bp", syncVersion: 1)])
        #expect(up.results.map(\.outcome) == [.inserted])
        #expect(up.anchor.sequence == before.sequence + 1)  // one change for the pair
        let read = try Contract.readAll(store)
        let sample = try #require(read.samples.first)
        #expect(read.samples.count == 1 && sample.uuid == up.results[0].uuid)
        #expect(sample.type == .bloodPressure && sample.value == 120 && sample.secondValue == 80)
        #expect(sample.componentValues.map(\.type) == [.bloodPressureSystolic, .bloodPressureDiastolic])
        #expect(sample.value(for: .bloodPressureDiastolic) == 80 && sample.value(for: .bloodPressureSystolic) == 120)
        #expect(try Contract.readAll(store, types: [.bloodPressure]).samples.map(\.uuid) == [sample.uuid])
        #expect(try Contract.readAll(store, types: [.bloodPressureSystolic]).samples.isEmpty)
    }

    @Test(arguments: ContractStores.all)
    func aHigherVersionReplacesBothComponentsAnEqualOneNeither(factory: ContractStore) throws {
        let store = try factory.make()
        let v1 = try upsert(store, [Contract.makePressure(120, 80, syncIdentifier: "bp", syncVersion: 1)])
        let v2 = try upsert(store, [Contract.makePressure(118, 76, syncIdentifier: "bp", syncVersion: 2)], at: 5)
        #expect(v2.results.map(\.outcome) == [.replaced] && v2.results[0].uuid != v1.results[0].uuid)
        #expect(v2.anchor.sequence == v1.anchor.sequence + 2)  // one tombstone, one insert
        let read = try Contract.readAll(store, from: v1.anchor)
        #expect(read.samples.map { [$0.value, $0.secondValue] } == [[118, 76]])
        #expect(read.deletedObjects == [DeletedObject(uuid: v1.results[0].uuid, type: .bloodPressure, syncIdentifier: "bp",
                                                      syncVersion: 1, source: src, start: Contract.t0, end: Contract.t0,
                                                      deletedAt: now + 5)])
        // The same version with another diastolic changes nothing: the pair is one versioned object.
        let same = try upsert(store, [Contract.makePressure(118, 99, syncIdentifier: "bp", syncVersion: 2)], at: 6)
        #expect(same.results.map(\.outcome) == [.ignored(.sameVersion)] && same.anchor == v2.anchor)
        #expect(try Contract.readAll(store).samples.map { [$0.value, $0.secondValue] } == [[118, 76]])
    }

    @Test(arguments: ContractStores.all)
    func deletingThePairByUUIDOrIdentifierLeavesOneTombstone(factory: ContractStore) throws {
        let store = try factory.make()
        let up = try upsert(store, [Contract.makePressure(120, 80), Contract.makePressure(130, 85, syncIdentifier: "bp", syncVersion: 1)])
        let deleted = try store.delete(uuids: [up.results[0].uuid], syncIdentifiers: ["bp"], patient: p, source: src, now: now + 9)
        #expect(deleted.results.map(\.outcome) == [.deleted, .deleted])
        #expect(deleted.results.map(\.type) == [.bloodPressure, .bloodPressure])
        #expect(deleted.anchor.sequence == up.anchor.sequence + 2)
        let read = try Contract.readAll(store, from: up.anchor)
        #expect(read.samples.isEmpty && read.deletedUUIDs == Set(up.results.map(\.uuid)))
        #expect(read.deletedObjects.allSatisfy { $0.type == .bloodPressure })
        #expect(try Contract.readAll(store).samples.isEmpty)
    }

    @Test(arguments: ContractStores.all)
    func aClientUUIDRetryMustMatchBothComponents(factory: ContractStore) throws {
        let store = try factory.make()
        let id = UUID()
        let input = Contract.makePressure(120, 80, uuid: id)
        _ = try upsert(store, [input])
        #expect(try upsert(store, [input], at: 1).results == [UpsertItemResult(index: 0, uuid: id, outcome: .ignored(.duplicateUUID))])
        var otherDiastolic = input
        otherDiastolic.secondValue = 81
        Contract.expectError(.conflict("")) { try upsert(store, [otherDiastolic], at: 2) }
        #expect(try Contract.readAll(store).samples.map(\.secondValue) == [80])
    }

    @Test(arguments: ContractStores.all)
    func aReportKeepsAnUnchangedPairAndReplacesAChangedOne(factory: ContractStore) throws {
        let store = try factory.make()
        func report(_ version: Int64, diastolic: Double) -> WeeklyReportInput {
            var r = Contract.makeReport(version: version, walks: [(16, 300)])
            let start = Contract.t0 + 7 * Contract.hour
            r.samples.append(WeeklyReportSampleInput(key: "pressure", sample: Contract.makePressure(120, diastolic, start: start)))
            return r
        }
        let source = Contract.therapist, later = now + 7 * Contract.day
        let v1 = try store.upsertReport(report(1, diastolic: 80), patient: p, source: source, now: later)
        let v2 = try store.upsertReport(report(2, diastolic: 80), patient: p, source: source, now: later + 1)
        #expect(v2.report.samples["pressure"] == v1.report.samples["pressure"] && v2.anchor == v1.anchor)
        let v3 = try store.upsertReport(report(3, diastolic: 82), patient: p, source: source, now: later + 2)
        let pair = try #require(v3.report.samples["pressure"])
        #expect(pair.uuid != v1.report.samples["pressure"]?.uuid && pair.secondValue == 82 && pair.syncVersion == 3)
        let read = try Contract.readAll(store, from: v2.anchor)
        #expect(read.sampleUUIDs == [pair.uuid] && read.deletedUUIDs == [v1.report.samples["pressure"]!.uuid])
    }

    @Test(arguments: ContractStores.all)
    func componentStatisticsCountStandaloneSamplesAndThePairs(factory: ContractStore) throws {
        let store = try factory.make()
        let t = Contract.t0
        _ = try upsert(store, [Contract.makePressure(120, 80, start: t), Contract.makePressure(110, 70, start: t + 3600,
                                                                                              syncIdentifier: "bp", syncVersion: 1)])
        _ = try store.upsert([Contract.makeInput(type: .bloodPressureSystolic, value: 130, start: t + 7200, minutes: 0),
                              Contract.makeInput(type: .bloodPressureDiastolic, value: 90, start: t + 7200, minutes: 0)],
                             patient: p, source: "org.example.cuff", now: now)
        _ = try store.upsert([Contract.makePressure(200, 150, start: t)], patient: "patient-2", source: src, now: now)
        func figures(_ type: SampleType, _ configure: (inout StatisticsQuery) -> Void = { _ in }) throws -> StatisticsValues {
            var query = StatisticsQuery(type: type, start: t - 10 * 3600, end: t + 14 * 3600, interval: .day,
                                        options: [.discreteAverage, .discreteMin, .discreteMax, .mostRecent])
            configure(&query)
            return try store.statistics(patient: p, query: query).buckets[0].values
        }
        // Systolic: 120, 110 (pairs) and 130 (alone); diastolic: 80, 70 and 90.
        #expect(try figures(.bloodPressureSystolic) == StatisticsValues(average: 120, minimum: 110, maximum: 130, mostRecent: 130,
                                                                         mostRecentStart: t + 7200, mostRecentEnd: t + 7200))
        #expect(try figures(.bloodPressureDiastolic).average == 80)
        #expect(try figures(.bloodPressureDiastolic) { $0.sources = [src] }.average == 75)
        // Replacing the pair moves both components; deleting it removes both.
        _ = try upsert(store, [Contract.makePressure(140, 100, start: t + 3600, syncIdentifier: "bp", syncVersion: 2)], at: 1)
        #expect(try figures(.bloodPressureSystolic).average == 130 && figures(.bloodPressureDiastolic).average == 90)
        _ = try store.delete(uuids: [], syncIdentifiers: ["bp"], patient: p, source: src, now: now + 2)
        #expect(try figures(.bloodPressureSystolic).average == 125 && figures(.bloodPressureDiastolic).maximum == 90)
        // The correlation itself has no statistics: ask for a component.
        Contract.expectError(.validationFailed([])) { try figures(.bloodPressure) }
    }
}
