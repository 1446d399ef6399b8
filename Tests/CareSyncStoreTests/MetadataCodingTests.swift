import CareSyncTestSupport
import CareSyncCore
import Foundation
import Testing
@testable import CareSyncStore

/// The stored JSON text of sample metadata.
@Suite struct MetadataCodingTests {
    static let awkward: [String: MetadataValue] = [
        "quote\"and\\backslash": .string("line\nbreak\ttab \u{01} \"q\" é 🦶"),
        "wasUserEntered": .bool(true),
        "off": .bool(false),
        "integral": .number(450),
        "negative": .number(-3.5),
        "tenth": .number(0.1),
        "huge": .number(1e300),
        "beyondExactIntegers": .number(9_007_199_254_740_994),
        "tiny": .number(.leastNonzeroMagnitude),
        "": .string(""),
    ]

    @Test func roundTripsEveryKindOfValue() throws {
        let text = try #require(try MetadataCoding.encode(Self.awkward))
        #expect(try MetadataCoding.decode(text) == Self.awkward)
    }

    @Test func isJSONThatFoundationAndSQLiteRead() throws {
        let text = try #require(try MetadataCoding.encode(Self.awkward))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object.count == Self.awkward.count)
        #expect(object["integral"] as? Int == 450)
        #expect(object["quote\"and\\backslash"] as? String == "line\nbreak\ttab \u{01} \"q\" é 🦶")
        let dir = try TemporaryDirectory()
        let db = try Connection(path: dir.path("m.sqlite"))
        #expect(try db.scalarInt64("SELECT json_valid(?)", [.text(text)]) == 1)
        #expect(try db.scalarString("SELECT json_type(?, '$.wasUserEntered')", [.text(text)]) == "true")
    }

    @Test func keysAreSortedAndEmptyIsNull() throws {
        #expect(try MetadataCoding.encode([:]) == nil)
        #expect(try MetadataCoding.encode(["b": .number(1), "a": .string("x")]) == #"{"a":"x","b":1}"#)
    }

    @Test func aNonFiniteNumberIsRefused() {
        #expect(throws: MetadataCoding.NonFiniteNumber(key: "x")) { try MetadataCoding.encode(["x": .number(.infinity)]) }
    }
}
