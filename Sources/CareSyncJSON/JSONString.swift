/// The one JSON string escaper: writes a string literal that escapes every control character (U+0000–U+001F),
/// `"`, `\`, DEL (U+007F) and the line separators U+2028 and U+2029, so the literal is always one line and safe
/// inside a `<script>` or a JSON log line. Everything else goes out as its UTF-8 bytes.
///
/// `\n`, `\r`, `\t`, `\"` and `\\` are written short; the others as `\u00xx`, `\u007f`, `\u2028`, `\u2029`.
/// It writes bytes, never concatenates strings: the feed encoder calls it for every string of every page.
public enum JSONString {
    /// `text` as a JSON string literal.
    public static func quoted(_ text: String) -> String {
        var out: [UInt8] = []
        write(text, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `text` as a JSON string literal to `out`.
    @inlinable
    public static func write<Output: JSONOutput & ~Copyable>(_ text: String, into out: inout Output) {
        var text = text
        text.withUTF8 { write(utf8: $0, into: &out) }
    }

    /// Appends the UTF-8 `bytes` as a JSON string literal to `out`.
    @inlinable
    public static func write<Output: JSONOutput & ~Copyable>(utf8 bytes: UnsafeBufferPointer<UInt8>, into out: inout Output) {
        // The common case, nothing to escape: the bytes at once.
        guard bytes.contains(where: mayNeedEscaping) else {
            out.reserve(bytes.count + 2)
            out.appendUnchecked(UInt8(ascii: "\""))
            out.appendUnchecked(UnsafeRawBufferPointer(bytes))
            out.appendUnchecked(UInt8(ascii: "\""))
            return
        }
        out.reserve(bytes.count * 6 + 2)  // the longest escape, \u00xx, is six bytes for one
        out.appendUnchecked(UInt8(ascii: "\""))
        var runStart = 0, index = 0
        while index < bytes.count {
            let byte = bytes[index]
            var code = UInt16(byte)
            var consumed = 1
            if !mayNeedEscaping(byte) {
                index += 1
                continue
            }
            if byte == 0xE2 {
                // U+2028 and U+2029 are E2 80 A8 and E2 80 A9; any other E2 sequence goes out as it is.
                guard index + 2 < bytes.count, bytes[index + 1] == 0x80, bytes[index + 2] & 0xFE == 0xA8 else {
                    index += 1
                    continue
                }
                code = 0x2000 + UInt16(bytes[index + 2] - 0x80)
                consumed = 3
            }
            if runStart < index { out.appendUnchecked(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[runStart..<index]))) }
            writeEscape(code, into: &out)
            index += consumed
            runStart = index
        }
        if runStart < bytes.count { out.appendUnchecked(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[runStart...]))) }
        out.appendUnchecked(UInt8(ascii: "\""))
    }

    /// Whether `byte` needs an escape, or (0xE2) may start U+2028/U+2029.
    @inlinable @inline(__always)
    static func mayNeedEscaping(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F || byte == 0xE2
    }

    /// The escape of `code` (a control character, `"`, `\`, DEL, U+2028 or U+2029).
    @inlinable
    static func writeEscape<Output: JSONOutput & ~Copyable>(_ code: UInt16, into out: inout Output) {
        out.appendUnchecked(UInt8(ascii: "\\"))
        switch code {
        case UInt16(UInt8(ascii: "\"")): out.appendUnchecked(UInt8(ascii: "\""))
        case UInt16(UInt8(ascii: "\\")): out.appendUnchecked(UInt8(ascii: "\\"))
        case 0x0A: out.appendUnchecked(UInt8(ascii: "n"))
        case 0x0D: out.appendUnchecked(UInt8(ascii: "r"))
        case 0x09: out.appendUnchecked(UInt8(ascii: "t"))
        default:
            out.appendUnchecked(UInt8(ascii: "u"))
            for shift in stride(from: 12, through: 0, by: -4) { out.appendUnchecked(hexDigit(UInt8((code >> UInt16(shift)) & 15))) }
        }
    }

    /// A lower-case hex digit.
    @inlinable @inline(__always)
    static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") - 10 + nibble
    }
}
