import CareSyncCore
import Testing

/// base64url without padding: round trips, and refusal of anything that is not one canonical encoding.
struct Base64URLTests {
    @Test(arguments: [("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"), ("foobar", "Zm9vYmFy")])
    func encodesTheRFC4648Vectors(plain: String, encoded: String) {
        #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
        #expect(Base64URL.decode(encoded) == Array(plain.utf8))
    }

    @Test func usesTheURLAlphabetAndRoundTrips() {
        #expect(Base64URL.encode([0xfb, 0xff, 0xbf]) == "-_-_")
        for count in 0..<70 {
            let bytes = PasskeyChallenges.systemRandom(count)
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
        }
    }

    @Test(arguments: ["Zm9v+g", "Zm9v/g", "Zm 9v", "Z", "Zm9vY", "Zh", "Zm9=v"])
    func refusesWhatIsNotCanonicalBase64URL(text: String) {
        #expect(Base64URL.decode(text) == nil)
    }

    @Test func toleratesTrailingPadding() {
        #expect(Base64URL.decode("Zg==") == Array("f".utf8))
    }
}
