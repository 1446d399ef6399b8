import Foundation
import Testing
import CareSyncCore
@testable import CareSyncServer

/// A principal keeps its records in a box (one pointer in every frame); it stays a value: equal and hashed by them.
@Suite struct PrincipalTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func token(_ id: String, teams: [String] = ["physio"]) -> TokenRecord {
        TokenRecord(id: id, secretHash: [], role: .therapist, patient: nil, careTeams: teams, source: "s",
                    readTypes: nil, writeTypes: nil, createdAt: now, expiresAt: nil)
    }

    @Test func principalsOfEqualRecordsAreEqualAndHashAlike() {
        let a = Principal(token: Self.token("t1")), b = Principal(token: Self.token("t1"))
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(Set([a, b]).count == 1)
    }

    @Test func principalsDifferWhenAnyRecordDiffers() {
        let a = Principal(token: Self.token("t1"))
        #expect(a != Principal(token: Self.token("t2")))
        #expect(a != Principal(token: Self.token("t1", teams: ["other"])))
        #expect(Set([a, Principal(token: Self.token("t2"))]).count == 2)
    }

    @Test func aCopyReadsTheSameRecords() {
        let a = Principal(token: Self.token("t1"))
        let copy = a
        #expect(copy.tokenID == "t1")
        #expect(copy.token.careTeams == ["physio"])
        #expect(copy.person == nil && copy.session == nil)
    }
}
