import Foundation

/// The 64-bit digest a replica checksum adds up: FNV-1a (64-bit) over the UTF-8 text `<UUID>:<syncVersion>`, where
/// `<UUID>` is the sample's uuid as the feed writes it (upper-case hex with hyphens) and `<syncVersion>` its sync
/// version in decimal, empty when it has none. docs/api.md gives the algorithm for client authors.
public enum SampleDigest {
    static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    static let prime: UInt64 = 0x0000_0100_0000_01b3

    /// The digest of one sample.
    public static func of(uuid: UUID, syncVersion: Int64?) -> UInt64 {
        var hash = offsetBasis
        for byte in (uuid.uuidString + ":" + (syncVersion.map(String.init) ?? "")).utf8 {
            hash ^= UInt64(byte)
            hash &*= prime
        }
        return hash
    }
}
