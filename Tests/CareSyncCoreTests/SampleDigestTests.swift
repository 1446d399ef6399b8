import CareSyncCore
import Foundation
import Testing

/// The replica checksum's digest and sum, against values computed independently (a few lines of Python's FNV-1a in
/// docs/api.md's algorithm, not this code).
@Suite struct SampleDigestTests {
    static let versioned = UUID(uuidString: "0E2D8C61-7E4B-4C1A-9C3F-6A1B2C3D4E5F")!
    static let unversioned = UUID(uuidString: "5B0F3D6E-1A2B-4C3D-8E9F-0A1B2C3D4E5F")!

    @Test func digestsAreFNV1aOfTheUUIDAndTheVersion() {
        #expect(SampleDigest.of(uuid: Self.versioned, syncVersion: 2) == 0x66b1_e83b_3259_7b64)
        #expect(SampleDigest.of(uuid: Self.unversioned, syncVersion: nil) == 0xe645_89d6_1867_5d9c)
        #expect(SampleDigest.of(uuid: Self.versioned, syncVersion: 3) != SampleDigest.of(uuid: Self.versioned, syncVersion: 2))
    }

    @Test func sumsWrapAndAreOrderIndependent() {
        var forward = TypeChecksum(), backward = TypeChecksum()
        let a = SampleDigest.of(uuid: Self.versioned, syncVersion: 2), b = SampleDigest.of(uuid: Self.unversioned, syncVersion: nil)
        forward.add(a); forward.add(b)
        backward.add(b); backward.add(a)
        #expect(forward == backward)
        #expect(forward.count == 2 && forward.sumHex == "4cf772114ac0d900")
        forward.remove(b)
        #expect(forward.sumHex == "66b1e83b32597b64" && forward.count == 1)
        #expect(TypeChecksum(count: 1, sum: 0x0f).sumHex == "000000000000000f")
    }
}
