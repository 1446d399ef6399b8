/// One type's figures in a replica: how many live samples, and the sum modulo 2^64 of their digests
/// (`SampleDigest`). Order-independent and updated by adding or taking away one sample at a time.
public struct TypeChecksum: Hashable, Sendable {
    /// Live samples of the type.
    public var count: Int64
    /// The sum of their digests, wrapping at 2^64.
    public var sum: UInt64

    /// Figures from their parts.
    public init(count: Int64 = 0, sum: UInt64 = 0) { self.count = count; self.sum = sum }

    /// Counts one more sample with `digest`.
    public mutating func add(_ digest: UInt64) { count += 1; sum &+= digest }
    /// Counts one sample with `digest` less.
    public mutating func remove(_ digest: UInt64) { count -= 1; sum &-= digest }
    /// Adds `other`'s figures (a delta).
    public mutating func add(_ other: TypeChecksum) { count += other.count; sum &+= other.sum }

    /// The sum as the wire writes it: 16 lower-case hex digits.
    public var sumHex: String {
        let digits = String(sum, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

/// A patient's replica figures as of an anchor: per type, the count and digest sum of the samples live then.
/// A reader that applied every change up to `anchor` computes the same figures from its copy.
public struct ReplicaChecksums: Hashable, Sendable {
    /// The anchor the figures are for.
    public var anchor: Anchor
    /// Every type with a live sample then (types with none are left out).
    public var types: [SampleType: TypeChecksum]

    /// Figures from their parts.
    public init(anchor: Anchor, types: [SampleType: TypeChecksum]) { self.anchor = anchor; self.types = types }
}
