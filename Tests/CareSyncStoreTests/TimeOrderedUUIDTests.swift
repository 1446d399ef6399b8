import CareSyncCore
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

    @Test func tenThousandInOneMillisecondAreDistinct() {
        let now = Date()
        let ids = (0..<10_000).map { _ in TimeOrderedUUID.make(date: now) }
        #expect(Set(ids).count == ids.count)
        // The 74 random bits differ, not just a counter: the bytes after the time vary in every position.
        for position in [7] + Array(9..<16) { #expect(Set(ids.map { $0.bytes[position] }).count > 200) }
        #expect(Set(ids.map { $0.bytes[8] }).count == 64)  // two variant bits fixed, six random
    }
}
