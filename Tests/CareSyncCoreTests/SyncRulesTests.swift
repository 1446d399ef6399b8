import Foundation
import Testing
@testable import CareSyncCore

@Suite struct SyncRulesTests {
    @Test(arguments: [(Int64(1), Int64(2), VersionDecision.replace),
                      (2, 2, .ignore(.sameVersion)),
                      (3, 2, .ignore(.olderVersion)),
                      (0, Int64.max, .replace)])
    func versionDecision(stored: Int64, incoming: Int64, expected: VersionDecision) {
        #expect(SyncRules.versionDecision(stored: stored, incoming: incoming) == expected)
    }

    @Test func derivedIdentifier() {
        #expect(SyncRules.derivedSyncIdentifier(report: "report-2020-W25", key: "2020-06-18") == "report-2020-W25/2020-06-18")
    }

    @Test func contentEqualIgnoresIdentityButNotContent() {
        let input = Fixtures.makeInput(value: 400, syncIdentifier: "r/a", syncVersion: 1, metadata: ["wasUserEntered": .bool(true)])
        var stored = Fixtures.makeSample(from: input)
        stored.syncVersion = 7; stored.syncIdentifier = "other"; stored.source = "x"
        #expect(SyncRules.contentEqual(stored, input))
        #expect(SyncRules.contentEqual(stored, Fixtures.makeInput(value: 0.4 * 1000, metadata: ["wasUserEntered": .bool(true)])))
        #expect(!SyncRules.contentEqual(stored, Fixtures.makeInput(value: 450, metadata: ["wasUserEntered": .bool(true)])))
        #expect(!SyncRules.contentEqual(stored, Fixtures.makeInput(value: 400)))
        #expect(!SyncRules.contentEqual(stored, Fixtures.makeInput(value: 400, minutes: 7, metadata: ["wasUserEntered": .bool(true)])))
        #expect(!SyncRules.contentEqual(stored, Fixtures.makeInput(type: .distanceWalkingRunning, value: 400,
                                                                   metadata: ["wasUserEntered": .bool(true)])))
    }

    @Test func clientUUIDRule() {
        let id = UUID()
        let input = Fixtures.makeInput(uuid: id, syncIdentifier: "s", syncVersion: 1)
        let stored = Fixtures.makeSample(uuid: id, from: input, source: "src")
        #expect(SyncRules.clientUUIDDecision(incoming: input, patient: "p", source: "src", existing: .unknown) == .fresh)
        #expect(SyncRules.clientUUIDDecision(incoming: input, patient: "p", source: "src",
                                             existing: .live(stored, patient: "p")) == .duplicate)
        var changed = input; changed.value = 401
        #expect(SyncRules.clientUUIDDecision(incoming: changed, patient: "p", source: "src",
                                             existing: .live(stored, patient: "p")) != .duplicate)
        #expect(SyncRules.clientUUIDDecision(incoming: input, patient: "q", source: "src",
                                             existing: .live(stored, patient: "p")) != .duplicate)
        #expect(SyncRules.clientUUIDDecision(incoming: input, patient: "p", source: "other",
                                             existing: .live(stored, patient: "p")) != .duplicate)
        var newer = input; newer.syncVersion = 2
        #expect(SyncRules.clientUUIDDecision(incoming: newer, patient: "p", source: "src",
                                             existing: .live(stored, patient: "p")) != .duplicate)
        #expect(SyncRules.clientUUIDDecision(incoming: input, patient: "p", source: "src", existing: .deleted) != .fresh)
    }

    @Test func upsertDecision() {
        let stored = Fixtures.makeSample(from: Fixtures.makeInput(syncIdentifier: "s", syncVersion: 2), source: "src")
        func decide(_ input: SampleInput, byUUID: ExistingUUID = .unknown, byKey: Sample?) -> UpsertDecision {
            SyncRules.upsertDecision(incoming: input, patient: "p", source: "src", byUUID: byUUID, byKey: byKey)
        }
        #expect(decide(Fixtures.makeInput(syncIdentifier: "s", syncVersion: 3), byKey: stored) == .replace(stored))
        #expect(decide(Fixtures.makeInput(syncIdentifier: "s", syncVersion: 2), byKey: stored) == .ignore(.sameVersion, existing: stored.uuid))
        #expect(decide(Fixtures.makeInput(syncIdentifier: "s", syncVersion: 1), byKey: stored) == .ignore(.olderVersion, existing: stored.uuid))
        #expect(decide(Fixtures.makeInput(syncIdentifier: "s", syncVersion: 1), byKey: nil) == .insert)
        #expect(decide(Fixtures.makeInput(), byKey: nil) == .insert)
        let retry = Fixtures.makeInput(uuid: stored.uuid, syncIdentifier: "s", syncVersion: 2)
        #expect(decide(retry, byUUID: .live(stored, patient: "p"), byKey: stored) == .ignore(.duplicateUUID, existing: stored.uuid))
        let reuse = Fixtures.makeInput(uuid: stored.uuid, syncIdentifier: "s", syncVersion: 3)
        guard case .conflict = decide(reuse, byUUID: .live(stored, patient: "p"), byKey: stored) else {
            Issue.record("a changed sample under a used uuid must conflict"); return
        }
    }
}
