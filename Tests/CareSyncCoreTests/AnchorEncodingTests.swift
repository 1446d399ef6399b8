import Foundation
import Testing
@testable import CareSyncCore

@Suite struct AnchorEncodingTests {
    @Test(arguments: [Int64(0), 1, 42, 1 << 40, Int64.max])
    func roundTrips(sequence: Int64) throws {
        let anchor = Anchor(storeID: "8C2F0D1E-store", sequence: sequence)
        let text = anchor.encoded
        #expect(text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        #expect(try Anchor(encoded: text, expectedStoreID: "8C2F0D1E-store") == anchor)
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
        let text = Anchor(storeID: "store-1", sequence: 123_456).encoded
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
    }
}
