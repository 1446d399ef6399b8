import CareSyncHTTP
import Testing

/// `trimmingSpaces()`: HTTP's optional whitespace (spaces and tabs) at both ends, nothing else.
@Suite struct TrimmingSpacesTests {
    @Test(arguments: [
        ("  Bearer abc \t", "Bearer abc"),
        ("\t\tx", "x"),
        ("x y", "x y"),
        ("   ", ""),
        ("", ""),
        ("\u{00A0}x\u{00A0}", "\u{00A0}x\u{00A0}"),  // a no-break space is not optional whitespace
        ("\r\nx", "\r\nx"),
    ])
    func trimsOnlySpacesAndTabsAtTheEnds(input: String, expected: String) {
        #expect(String(input.trimmingSpaces()) == expected)
        #expect(String(input[...].trimmingSpaces()) == expected)
    }
}
