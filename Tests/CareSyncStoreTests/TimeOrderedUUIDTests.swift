import Foundation
import Testing
@testable import CareSyncStore

@Suite struct TimeOrderedUUIDTests {
    @Test func version7LayoutAndTimeOrder() {
        let early = TimeOrderedUUID.make(date: Date(timeIntervalSince1970: 1_700_000_000))
        let late = TimeOrderedUUID.make(date: Date(timeIntervalSince1970: 1_700_000_000.002))
        for id in [early, late] {
            #expect(id.uuid.6 >> 4 == 7)
            #expect(id.uuid.8 >> 6 == 0b10)
        }
        #expect(early.bytes.lexicographicallyPrecedes(late.bytes))
        let ms = early.bytes.prefix(6).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        #expect(ms == 1_700_000_000_000)
        #expect(TimeOrderedUUID.make() != TimeOrderedUUID.make())
    }
}
