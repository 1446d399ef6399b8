import Foundation

/// A stable 128-bit digest (two FNV-1a 64-bit hashes) of a list of strings; the same on every run and machine.
struct ExportDigest: Hashable, Sendable {
    var a: UInt64 = 0xcbf2_9ce4_8422_2325
    var b: UInt64 = 0x6c62_272e_07bb_0142

    /// The digest of `fields`, joined by U+001F.
    init(fields: [String]) {
        for byte in fields.joined(separator: "\u{1F}").utf8 {
            a = (a ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            b = (b ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            b = b &+ (b >> 29)
        }
    }

    /// 32 hex digits.
    var hex: String { String(format: "%016llx%016llx", a, b) }
}
