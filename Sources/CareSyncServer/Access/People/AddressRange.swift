import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An IPv4 or IPv6 address, or a CIDR range of them (`10.0.0.0/8`, `::1`, `fd00::/8`): a `trustedProxies` entry.
public struct AddressRange: Sendable, Hashable, CustomStringConvertible {
    /// The network's bytes (4 or 16).
    let bytes: [UInt8]
    /// How many leading bits must match.
    let prefix: Int
    /// As configured.
    public let description: String

    /// A range from `text`; nil when it is not an address or a CIDR range.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let bytes = Self.parse(String(parts[0])) else { return nil }
        let bits = bytes.count * 8
        if parts.count == 2 {
            guard let prefix = Int(parts[1]), (0...bits).contains(prefix), parts[1].allSatisfy(\.isNumber) else { return nil }
            self.prefix = prefix
        } else {
            self.prefix = bits
        }
        self.bytes = bytes; self.description = text
    }

    /// Whether `address` (an address, bracketed or not) lies in this range; an IPv4-mapped IPv6 address counts as IPv4.
    public func contains(_ address: String) -> Bool {
        guard var other = Self.parse(address) else { return false }
        if bytes.count == 4, other.count == 16, other[0..<10].allSatisfy({ $0 == 0 }), other[10] == 0xff, other[11] == 0xff {
            other = Array(other[12...])
        }
        guard other.count == bytes.count else { return false }
        for bit in 0..<prefix {
            let mask = UInt8(0x80) >> (bit % 8)
            if bytes[bit / 8] & mask != other[bit / 8] & mask { return false }
        }
        return true
    }

    /// The bytes of an IPv4 or IPv6 address (brackets allowed); nil for anything else.
    static func parse(_ text: String) -> [UInt8]? {
        var plain = text
        if plain.hasPrefix("["), plain.hasSuffix("]") { plain = String(plain.dropFirst().dropLast()) }
        var v4 = in_addr()
        if inet_pton(AF_INET, plain, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, plain, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }

    /// Whether `address` is a loopback address (127.0.0.0/8 or ::1).
    public static func isLoopback(_ address: String) -> Bool { loopback.contains { $0.contains(address) } }

    private static let loopback = [AddressRange("127.0.0.0/8")!, AddressRange("::1")!]
}
