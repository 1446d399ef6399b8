import CSQLite
import CareSyncCore
import Foundation

extension TimeOrderedUUID {
    /// A new version 7 uuid for `date`, its random bits from SQLite's generator (ChaCha20, seeded from
    /// the OS): no system call per uuid, unlike `SystemRandomNumberGenerator`.
    public static func make(date: Date = Date()) -> UUID {
        var random = (UInt64(0), UInt64(0))
        withUnsafeMutableBytes(of: &random) { sqlite3_randomness(Int32($0.count), $0.baseAddress) }
        return make(date: date, random: random)
    }
}
