import CareSyncCore
import Foundation
import Testing

/// Food, a correlation of any dietary quantities: its components are one sample (one uuid, one sync identifier, one
/// change), stored and fed exactly, replaced whole by a higher version, and counted by the dietary types' statistics.
@Suite struct FoodContractTests {
    let p = Contract.patient, src = Contract.device, now = Contract.t0
    static let protein = SampleType(rawValue: "dietaryProtein")!, water = SampleType(rawValue: "dietaryWater")!
    static let sodium = SampleType(rawValue: "dietarySodium")!
    /// Values with no short decimal form, so a store that rounds them anywhere fails.
    let bagel: [SampleType: Double] = [.dietaryEnergyConsumed: 250.1, protein: 0.1 + 0.2, water: 1e-7, sodium: 0.000_493_8]

    func upsert(_ store: any SyncStore, _ inputs: [SampleInput], at offset: TimeInterval = 0) throws -> UpsertBatchResult {
        try store.upsert(inputs, patient: p, source: src, now: now + offset)
    }

    @Test(arguments: ContractStores.all)
    func aFoodIsOneSampleWithItsComponentsExact(factory: ContractStore) throws {
        let store = try factory.make()
        let before = try store.currentAnchor()
        let up = try upsert(store, [Contract.makeFood(bagel, syncIdentifier: "food-1", syncVersion: 1)])
        #expect(up.results.map(\.outcome) == [.inserted])
        #expect(up.anchor.sequence == before.sequence + 1)  // one change for the whole food
        let read = try Contract.readAll(store)
        let sample = try #require(read.samples.first)
        #expect(read.samples.count == 1 && sample.uuid == up.results[0].uuid && sample.type == .food)
        #expect(sample.components == bagel)
        #expect(sample.components[Self.protein]?.bitPattern == (0.1 + 0.2).bitPattern)
        #expect(sample.value == 4 && sample.secondValue == nil && sample.metadata == ["HKFoodType": .string("Bagel")])
        #expect(sample.componentValues.map(\.type.rawValue) == bagel.keys.map(\.rawValue).sorted())
        #expect(sample.value(for: .dietaryEnergyConsumed) == 250.1 && sample.value(for: .stepCount) == nil)
        #expect(try Contract.readAll(store, types: [.food]).samples.map(\.uuid) == [sample.uuid])
        #expect(try Contract.readAll(store, types: [.dietaryEnergyConsumed]).samples.isEmpty)
    }

    @Test(arguments: ContractStores.all)
    func aHigherVersionReplacesEveryComponentAnEqualOneNone(factory: ContractStore) throws {
        let store = try factory.make()
        let v1 = try upsert(store, [Contract.makeFood(bagel, syncIdentifier: "food-1", syncVersion: 1)])
        let smaller: [SampleType: Double] = [.dietaryEnergyConsumed: 180, Self.water: 0.25]
        let v2 = try upsert(store, [Contract.makeFood(smaller, syncIdentifier: "food-1", syncVersion: 2)], at: 5)
        #expect(v2.results.map(\.outcome) == [.replaced] && v2.results[0].uuid != v1.results[0].uuid)
        let read = try Contract.readAll(store, from: v1.anchor)
        #expect(read.samples.map(\.components) == [smaller])  // protein and sodium are gone with the old version
        #expect(read.deletedObjects.map(\.uuid) == [v1.results[0].uuid] && read.deletedObjects.allSatisfy { $0.type == .food })
        let same = try upsert(store, [Contract.makeFood([.dietaryEnergyConsumed: 999], syncIdentifier: "food-1", syncVersion: 2)], at: 6)
        #expect(same.results.map(\.outcome) == [.ignored(.sameVersion)] && same.anchor == v2.anchor)
        #expect(try Contract.readAll(store).samples.map(\.components) == [smaller])
    }

    @Test(arguments: ContractStores.all)
    func aClientUUIDRetryMustMatchEveryComponent(factory: ContractStore) throws {
        let store = try factory.make()
        let id = UUID()
        let input = Contract.makeFood(bagel, uuid: id)
        _ = try upsert(store, [input])
        #expect(try upsert(store, [input], at: 1).results == [UpsertItemResult(index: 0, uuid: id, outcome: .ignored(.duplicateUUID))])
        var otherSodium = input
        otherSodium.components[Self.sodium] = 0.0005
        Contract.expectError(.conflict("")) { try upsert(store, [otherSodium], at: 2) }
        #expect(try Contract.readAll(store).samples.map(\.components) == [bagel])
    }

    @Test(arguments: ContractStores.all)
    func checksumsChangeWhenAComponentChanges(factory: ContractStore) throws {
        let store = try factory.make()
        _ = try upsert(store, [Contract.makeFood(bagel, syncIdentifier: "food-1", syncVersion: 1)])
        let first = try #require(store.checksums(patient: p, at: nil).types[.food])
        var changed = bagel
        changed[.dietaryEnergyConsumed] = 251
        _ = try upsert(store, [Contract.makeFood(changed, syncIdentifier: "food-1", syncVersion: 2)], at: 1)
        let second = try #require(store.checksums(patient: p, at: nil).types[.food])
        #expect(first.count == 1 && second.count == 1 && first.sum != second.sum)
        let live = try #require(Contract.readAll(store).samples.first)
        #expect(second.sum == SampleDigest.of(uuid: live.uuid, syncVersion: live.syncVersion))
    }

    @Test(arguments: ContractStores.all)
    func dietaryStatisticsCountAFoodsComponents(factory: ContractStore) throws {
        let store = try factory.make()
        let t = Contract.t0
        let lunch: [SampleType: Double] = [.dietaryEnergyConsumed: 250.5, Self.water: 0.25, Self.protein: 12]
        _ = try upsert(store, [Contract.makeFood(lunch, start: t, syncIdentifier: "food-1", syncVersion: 1),
                               Contract.makeFood([Self.water: 0.5], start: t + 600),
                               Contract.makeInput(type: .dietaryEnergyConsumed, value: 100, start: t + 1200, minutes: 0)])
        _ = try store.upsert([Contract.makeFood([.dietaryEnergyConsumed: 5000], start: t)], patient: "patient-2", source: src, now: now)
        func sum(_ type: SampleType, _ configure: (inout StatisticsQuery) -> Void = { _ in }) throws -> Double? {
            var query = StatisticsQuery(type: type, start: t - 3600, end: t + 3600, interval: .day, options: [.cumulativeSum])
            configure(&query)
            return try store.statistics(patient: p, query: query).buckets.first?.values.sum
        }
        #expect(try sum(.dietaryEnergyConsumed) == 350.5)  // the lunch's 250.5 and 100 alone; the water-only food gives none
        #expect(try sum(Self.water) == 0.75)
        #expect(try sum(Self.sodium) == nil)
        #expect(try sum(.dietaryEnergyConsumed) { $0.correlations = [] } == 100)  // a token that may not read food
        _ = try upsert(store, [Contract.makeFood([.dietaryEnergyConsumed: 300], start: t, syncIdentifier: "food-1", syncVersion: 2)], at: 1)
        #expect(try sum(.dietaryEnergyConsumed) == 400)
        _ = try store.delete(uuids: [], syncIdentifiers: ["food-1"], patient: p, source: src, now: now + 2)
        #expect(try sum(.dietaryEnergyConsumed) == 100)
    }
}
