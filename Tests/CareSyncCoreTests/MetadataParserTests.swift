import Foundation
import Testing
@testable import CareSyncCore

/// The stored metadata's own parser agrees with Foundation's on what it takes, and hands back (nil) what it does not.
@Suite struct MetadataParserTests {
    static func parsed(_ text: String) -> [String: MetadataValue]? {
        var text = text
        return text.withUTF8 { bytes in
            var parser = FlatObjectParser(bytes: bytes)
            return parser.parse()
        }
    }

    static let stored: [(String, [String: MetadataValue])] = [
        (#"{}"#, [:]),
        (#"{"a":"x"}"#, ["a": .string("x")]),
        (#"{ "a" : 1 , "b" : true, "c": false }"#, ["a": .number(1), "b": .bool(true), "c": .bool(false)]),
        (#"{"n":-0.5,"e":1e3,"E":2.5E-7,"z":0}"#, ["n": .number(-0.5), "e": .number(1000), "E": .number(2.5e-7), "z": .number(0)]),
        (#"{"quote\"and\\slash\/":"v\"w"}"#, ["quote\"and\\slash/": .string("v\"w")]),
        (#"{"unicode":"é 🦶"}"#, ["unicode": .string("é 🦶")]),
        (#"{"big":9007199254740994,"tiny":5e-324}"#, ["big": .number(9_007_199_254_740_994), "tiny": .number(Double.leastNonzeroMagnitude)]),
    ]

    @Test func takesTheStoredForm() throws {
        for (text, expected) in Self.stored {
            #expect(Self.parsed(text) == expected, "\(text)")
            #expect(try MetadataCoding.decode(text) == expected, "\(text)")
        }
    }

    @Test(arguments: [
        #"{"a":"line\nbreak"}"#, #"{"a":"\u0001"}"#, #"{"a":null}"#, #"{"a":[1]}"#, #"{"a":{"b":1}}"#, #"{"a":1,"a":2}"#,
        #"{"a":01}"#, #"{"a":1."}"#, #"{"a":1} x"#, #"["a"]"#, #"{"a" 1}"#, #"{"a":tru}"#,
    ])
    func handsBackWhatItDoesNotTake(text: String) {
        #expect(Self.parsed(text) == nil)
    }

    @Test func decodeFallsBackToFoundationForEscapes() throws {
        #expect(try MetadataCoding.decode(#"{"a":"line\nbreak","b":1}"#) == ["a": .string("line\nbreak"), "b": .number(1)])
    }
}
