import Foundation
import Testing
@testable import CareSyncCore

@Suite struct AnchorEncodingTests {
    @Test(arguments: [Int64(0), 1, 42, 1 << 40, Int64.max])
    func roundTrips(sequence: Int64) throws {
        let anchor = Anchor(storeID: "8C2F0D1E-store", sequence: sequence, horizon: sequence / 3)
        let text = anchor.encoded
        #expect(text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        #expect(try Anchor(encoded: text, expectedStoreID: "8C2F0D1E-store") == anchor)
    }

    @Test func base64URLMatchesFoundationsBase64ForEveryLength() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...40 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let expected = Data(bytes).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(Anchor.base64URL(bytes) == expected, "bytes \(bytes)")
        }
    }

    @Test func anotherStoreIsInvalid() {
        let text = Anchor(storeID: "A", sequence: 9).encoded
        #expect(throws: SyncError.invalidAnchor) { try Anchor(encoded: text, expectedStoreID: "B") }
    }

    @Test(arguments: ["", "abc", "!!!!", "AAAAAAAAAAAAAAAAAAAA", "AQAAAAAAAAAqAUF==", "not an anchor", String(repeating: "A", count: 1000)])
    func malformedIsInvalid(text: String) {
        #expect(throws: SyncError.invalidAnchor) { try Anchor(encoded: text, expectedStoreID: "A") }
    }

    @Test func everySingleCharacterChangeIsCaught() {
        let text = Anchor(storeID: "store-1", sequence: 123_456, horizon: 77).encoded
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var chars = Array(text)
        for i in chars.indices {
            let original = chars[i]
            for replacement in alphabet where replacement != original {
                chars[i] = replacement
                let mutated = String(chars)
                #expect(Anchor.decode(mutated) == nil, "accepted \(mutated)")
            }
            chars[i] = original
        }
        #expect(Anchor.decode(String(text.dropLast())) == nil)
        #expect(Anchor.decode(text + "A") == nil)
    }

    @Test func negativeSequenceIsRefused() {
        #expect(Anchor.decode(Anchor(storeID: "s", sequence: -1).encoded) == nil)
        #expect(Anchor.decode(Anchor(storeID: "s", sequence: 1, horizon: -1).encoded) == nil)
    }

    @Test func validationRule() {
        func check(_ anchor: Anchor, head: Int64 = 10, horizon: Int64 = 4) -> SyncError? {
            do { try anchor.validate(storeID: "s", head: head, storeHorizon: horizon); return nil } catch { return error as? SyncError }
        }
        #expect(check(Anchor(storeID: "s", sequence: 4, horizon: 0)) == nil)          // at the horizon: saw everything purged
        #expect(check(Anchor(storeID: "s", sequence: 3, horizon: 0)) == .anchorExpired)
        #expect(check(Anchor(storeID: "s", sequence: 3, horizon: 4)) == nil)          // handed out after the purge
        #expect(check(Anchor(storeID: "s", sequence: 3, horizon: 2)) == .anchorExpired)
        #expect(check(Anchor(storeID: "s", sequence: 10, horizon: 4)) == nil)
        #expect(check(Anchor(storeID: "s", sequence: 11, horizon: 4)) == .invalidAnchor)
        #expect(check(Anchor(storeID: "s", sequence: 5, horizon: 5)) == .invalidAnchor)
        #expect(check(Anchor(storeID: "t", sequence: 5, horizon: 4)) == .invalidAnchor)
        #expect(check(Anchor(storeID: "s", sequence: -1, horizon: 0)) == .invalidAnchor)
        #expect(check(Anchor(storeID: "s", sequence: 0, horizon: 0), head: 0, horizon: 0) == nil)
    }
}
