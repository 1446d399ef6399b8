import Foundation
import Testing
import CareSyncJSON

/// The one JSON string escaper: every character that must or should be escaped is, and nothing else is.
@Suite struct JSONStringTests {
    /// The escape JSON expects for each control character: five short forms, the rest `\u00xx`.
    static func expectedEscape(_ value: UInt32) -> String {
        switch value {
        case 0x0A: #"\n"#
        case 0x0D: #"\r"#
        case 0x09: #"\t"#
        default: "\\u" + String(repeating: "0", count: 4 - String(value, radix: 16).count) + String(value, radix: 16)
        }
    }

    @Test(arguments: UInt32(0)...0x1F)
    func everyControlCharacterIsEscaped(_ value: UInt32) throws {
        let text = "a" + String(Unicode.Scalar(value)!) + "b"
        let quoted = JSONString.quoted(text)
        #expect(quoted == "\"a" + Self.expectedEscape(value) + "b\"")
        #expect(try decoded(quoted) == text)
    }

    @Test func delAndTheLineSeparatorsAreEscaped() throws {
        for (text, escaped) in [("\u{7F}", #"\u007f"#), ("\u{2028}", #"\u2028"#), ("\u{2029}", #"\u2029"#)] {
            let quoted = JSONString.quoted("x" + text + "y")
            #expect(quoted == "\"x" + escaped + "y\"")
            #expect(try decoded(quoted) == "x" + text + "y")
        }
    }

    @Test func quoteAndBackslashAreEscaped() throws {
        #expect(JSONString.quoted(#"say "hi" \ bye"#) == #""say \"hi\" \\ bye""#)
    }

    @Test func nonASCIIGoesOutAsItsBytes() throws {
        // U+2027 and U+202A share E2 80 with the separators, "–" and "€" start with E2: none is escaped.
        let text = "Grüße, 東京, 😀, \u{2027}\u{202A}, – €"
        #expect(JSONString.quoted(text) == "\"" + text + "\"")
        #expect(try decoded(JSONString.quoted(text)) == text)
    }

    @Test func escapesAndPlainRunsMixAndTheEdgesHold() throws {
        let text = "\u{2028}\"é\u{1}\u{7F}\u{E2}\u{2029}"
        #expect(JSONString.quoted(text) == #""\u2028\"é\u0001\u007fâ\u2029""#)
        #expect(try decoded(JSONString.quoted(text)) == text)
        #expect(JSONString.quoted("") == "\"\"")
        #expect(JSONString.quoted("plain") == "\"plain\"")
    }

    @Test func bytesAppendedToAnArrayMatchTheString() {
        var out: [UInt8] = Array("[".utf8)
        JSONString.write("a\u{0}b\u{2028}", into: &out)
        #expect(String(decoding: out, as: UTF8.self) == #"["a\u0000b\u2028""#)
    }

    /// The string a JSON parser reads back from `literal`.
    func decoded(_ literal: String) throws -> String {
        try JSONDecoder().decode(String.self, from: Data(literal.utf8))
    }
}
