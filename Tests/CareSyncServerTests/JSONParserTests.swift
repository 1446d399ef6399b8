import CareSyncHTTP
import Testing
@testable import CareSyncServer

/// The request-body JSON parser: RFC 8259 exactly, so a malformed body is 400 `invalidJSON`.
@Suite struct JSONParserTests {
    @Test func parsesEveryKindOfValue() throws {
        let value = try JSONValue.parse(Array(#" {"a": [1, -2.5, 3e2, 0, true, false, null], "s": "x\"\\\/\n\u00e9\ud83d\ude00", "o": {}} "#.utf8))
        #expect(value["a"] == [1, -2.5, 300, 0, true, false, nil])
        #expect(value["s"] == .string("x\"\\/\né😀"))
        #expect(value["o"] == .object([:]))
        #expect(try JSONValue.parse(Array("12345678901234567890".utf8)) == .number(Double("12345678901234567890")!))
    }

    @Test(arguments: ["", "{", "[1,]", "{\"a\":1,}", "01", "1.", ".5", "+1", "-", "tru", "nul", "\"a", "\"\u{01}\"",
                      "\"\\x\"", "\"\\ud800\"", "\"\\udc00\"", "[1] 2", "{a:1}", "{\"a\" 1}", "NaN", "[" + String(repeating: "[", count: 100) + "]"])
    func refusesMalformedDocuments(text: String) {
        #expect(throws: HTTPError.self) { try JSONValue.parse(Array(text.utf8)) }
    }

    @Test func roundTripsThroughTheSerializer() throws {
        let value: JSONValue = ["k": ["a", 1.5, true, nil, ["x": "\u{7}\"q"]]]
        #expect(try JSONValue.parse(value.serialized()) == value)
    }
}
