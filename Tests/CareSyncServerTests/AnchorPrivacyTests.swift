import CareSyncCore
import CareSyncHTTP
import Foundation
import Testing
@testable import CareSyncServer

/// Anchors tell nothing beyond the caller's own feed (issue 25, item 5): sealed with the database's anchor key,
/// fresh each time, refused when altered or sealed elsewhere; an empty page hands back the caller's own anchor.
@Suite struct AnchorPrivacyTests {
    static let key = Array(repeating: UInt8(9), count: 32)

    @Test func aSealedAnchorOpensToItsPositionAndNeverRepeats() throws {
        let wire = AnchorWire(key: Self.key)
        let anchor = Anchor(storeID: "store", sequence: 12, horizon: 3)
        let first = wire.encode(anchor), second = wire.encode(anchor)
        #expect(first != second)
        #expect(try wire.decode(first) == anchor && (try wire.decode(second)) == anchor)
        #expect(!first.contains(anchor.encoded) && Anchor.decode(first) == nil)
    }

    @Test func noncesDrawnInBulkNeverRepeatAcrossRefills() throws {
        let wire = AnchorWire(key: Self.key)
        let anchor = Anchor(storeID: "store", sequence: 12)
        // 1,000 seals use the nonce pool's first draw (341 nonces) and two refills.
        let sealed = (0..<1_000).map { _ in wire.encode(anchor) }
        let nonces = try sealed.map { try #require(Base64URL.decode($0))[1...12] }
        #expect(Set(sealed).count == 1_000 && Set(nonces.map(Array.init)).count == 1_000)
        for text in sealed.prefix(3) + sealed.suffix(3) {
            #expect(try wire.decode(text) == anchor)
            #expect(try wire.decode(text) == anchor, "opened again from what was remembered")
        }
    }

    @Test func anAlteredForgedOrForeignSealedAnchorIsInvalid() throws {
        let wire = AnchorWire(key: Self.key)
        let sealed = wire.encode(Anchor(storeID: "store", sequence: 12))
        #expect(try wire.decode(sealed) == Anchor(storeID: "store", sequence: 12))  // remembered as opened
        var bytes = try #require(Base64URL.decode(sealed))
        bytes[20] ^= 1
        for text in [Anchor.base64URL(bytes), AnchorWire(key: Array(repeating: 8, count: 32)).encode(Anchor(storeID: "store", sequence: 12)),
                     Anchor.base64URL([2] + Array(repeating: 0, count: 60)), "Ag", String(sealed.dropLast(3))] {
            #expect(throws: HTTPError.invalidAnchor) { try wire.decode(text) }
        }
        // Anchors handed out before sealing are still read: no client starts over after an upgrade.
        let legacy = Anchor(storeID: "store", sequence: 5).encoded
        #expect(try wire.decode(legacy) == Anchor(storeID: "store", sequence: 5))
    }

    @Test func anEmptyPageAfterAnotherPatientsWritesHandsBackTheSameAnchor() async throws {
        try await TestServer.with(.inMemory) { (server: TestServer) async throws in
            let t = server.tokens
            let head = try await server.send("GET", "/v1/patients/alice/changes", token: t.aliceDevice)
            let anchor = try #require(head.json["anchor"]?.stringValue)
            #expect(Anchor.decode(anchor) == nil, "an anchor in clear: \(anchor)")
            let before = try await server.send("GET", "/v1/patients/alice/changes?anchor=\(anchor)", token: t.aliceDevice)
            for n in 0..<5 {
                let wrote = try await server.send("POST", "/v1/patients/bob/samples", token: t.bobDevice,
                                                  json: ["samples": [Fixtures.steps(Double(100 + n))]])
                #expect(wrote.status == 200)
            }
            let after = try await server.send("GET", "/v1/patients/alice/changes?anchor=\(anchor)", token: t.aliceDevice)
            #expect(before.json["anchor"]?.stringValue == anchor && after.json["anchor"]?.stringValue == anchor)
            #expect(after.json["samples"] == [] && after.json["deletedObjects"] == [])
        }
    }

    @Test func aNarrowTokensEmptyPageHidesWritesOfTypesItMayNotRead() async throws {
        try await TestServer.with(.inMemory) { (server: TestServer) async throws in
            let t = server.tokens
            let head = try await server.send("GET", "/v1/patients/alice/changes", token: t.narrow)
            let anchor = try #require(head.json["anchor"]?.stringValue)
            let wrote = try await server.send("POST", "/v1/patients/alice/samples", token: t.aliceDevice,
                                              json: ["samples": [Fixtures.steps(777)]])
            #expect(wrote.status == 200)
            let after = try await server.send("GET", "/v1/patients/alice/changes?anchor=\(anchor)", token: t.narrow)
            #expect(after.json["anchor"]?.stringValue == anchor && after.json["samples"] == [])
        }
    }
}
