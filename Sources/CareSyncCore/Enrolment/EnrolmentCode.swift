/// One-time enrolment codes: 12 symbols of Crockford's base32 (60 bits), shown in groups of four (`7KQ2-M9XD-4HVB`).
///
/// The alphabet has no I, L, O or U; reading is case-insensitive, ignores hyphens and spaces, and takes
/// I and L for 1 and O for 0, as Crockford's decoding does, so a code read aloud or typed by hand still matches.
public enum EnrolmentCode {
    /// The 32 symbols, in value order.
    public static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
    /// Symbols in a code.
    public static let length = 12
    /// Bits of entropy in a code.
    public static var entropyBits: Int { length * 5 }

    /// A new code from `generator` (the system's CSPRNG unless a test passes its own), in its display form.
    public static func generate<G: RandomNumberGenerator>(using generator: inout G) -> String {
        let symbols = (0..<length).map { _ in alphabet[Int(generator.next(upperBound: UInt8(32)))] }
        return stride(from: 0, to: length, by: 4).map { String(symbols[$0..<$0 + 4]) }.joined(separator: "-")
    }

    /// A new code from the system's random number generator.
    public static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        return generate(using: &generator)
    }

    /// The canonical form a code is hashed in (12 upper-case symbols, no separators), or nil when `text` is not a code.
    public static func normalized(_ text: String) -> String? {
        guard text.utf8.count <= 64 else { return nil }
        var result = ""
        for character in text.uppercased() {
            switch character {
            case "-", " ": continue
            case "I", "L": result.append("1")
            case "O": result.append("0")
            default:
                guard alphabet.contains(character) else { return nil }
                result.append(character)
            }
        }
        return result.count == length ? result : nil
    }
}
