import Foundation

/// Server-assigned sample uuids: version 7 (RFC 9562), a 48-bit Unix millisecond time then 74 random bits.
///
/// Random (v4) uuids land all over a uuid index, so every batch dirties a page per sample; time-ordered
/// ones append at the index's right edge, and a batch touches a handful of pages. The time is the wall
/// clock at assignment (not the request's `now`), and carries no meaning. Each store supplies the random
/// bits from its own generator.
public enum TimeOrderedUUID {
    /// A version 7 uuid for `date` whose random bits come from `random`.
    public static func make(date: Date, random: (UInt64, UInt64)) -> UUID {
        let ms = UInt64(max(0, date.timeIntervalSince1970 * 1000))
        let (a, b) = random
        var bytes = [UInt8](repeating: 0, count: 16)
        for i in 0..<6 { bytes[i] = UInt8(truncatingIfNeeded: ms >> UInt64(40 - 8 * i)) }
        bytes[6] = 0x70 | UInt8(truncatingIfNeeded: a & 0x0F)        // version 7
        bytes[7] = UInt8(truncatingIfNeeded: a >> 8)
        bytes[8] = 0x80 | UInt8(truncatingIfNeeded: (a >> 16) & 0x3F) // RFC 4122 variant
        for i in 9..<16 { bytes[i] = UInt8(truncatingIfNeeded: b >> UInt64(8 * (i - 9))) }
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
