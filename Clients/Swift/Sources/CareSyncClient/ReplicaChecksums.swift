import Foundation

/// Replica checksums (`fnv1a64-sum`, docs/api.md): per type, the number of samples and the sum of their
/// digests modulo 2^64, where a sample's digest is 64-bit FNV-1a of `<UUID>:<syncVersion>`.
///
/// The sum does not depend on order, so a replica keeps it as it applies pages: ``add(_:)`` a stored
/// sample, ``remove(type:uuid:syncVersion:)`` the one a deleted object (or a replacement) takes away.
/// Compare with the server's figures through ``CareSyncClient/verify(patient:anchor:against:)``.
public struct ReplicaChecksums: Sendable, Hashable {
    /// One type's figures.
    public struct Figures: Sendable, Hashable {
        /// Samples of the type.
        public var count: Int
        /// Their digests summed modulo 2^64.
        public var sum: UInt64

        /// Figures from their fields.
        public init(count: Int = 0, sum: UInt64 = 0) {
            self.count = count
            self.sum = sum
        }

        /// `sum` as the server writes it: 16 lower-case hexadecimal digits.
        public var sumHex: String {
            let digits = String(sum, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
    }

    /// The algorithm these figures follow, as the server names it.
    public static let algorithm = "fnv1a64-sum"

    /// Figures by type; a type with no sample is absent (the same as count 0, sum 0).
    public private(set) var types: [String: Figures]

    /// Figures from `types`; empty types are dropped.
    public init(types: [String: Figures] = [:]) {
        self.types = types.filter { $0.value != Figures() }
    }

    /// The figures of `samples`.
    public init<S: Sequence>(samples: S) where S.Element == Sample {
        self.init()
        for sample in samples { add(sample) }
    }

    /// A type's figures (count 0, sum 0 when it has no sample).
    public subscript(type: String) -> Figures { types[type] ?? Figures() }

    /// 64-bit FNV-1a of `<uuid>:<syncVersion>` (upper-case uuid; the version empty when there is none).
    public static func digest(uuid: UUID, syncVersion: Int?) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "\(uuid.uuidString):\(syncVersion.map(String.init) ?? "")".utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// Counts a stored sample.
    public mutating func add(_ sample: Sample) {
        add(type: sample.type, digest: Self.digest(uuid: sample.uuid, syncVersion: sample.syncVersion))
    }

    /// Counts a sample of `type` with `digest`.
    public mutating func add(type: String, digest: UInt64) {
        var figures = self[type]
        figures.count += 1
        figures.sum &+= digest
        types[type] = figures
    }

    /// Takes away a sample the replica held (pass what it held, not what a deleted object says).
    public mutating func remove(type: String, uuid: UUID, syncVersion: Int?) {
        remove(type: type, digest: Self.digest(uuid: uuid, syncVersion: syncVersion))
    }

    /// Takes away a sample of `type` with `digest`.
    public mutating func remove(type: String, digest: UInt64) {
        var figures = self[type]
        figures.count -= 1
        figures.sum &-= digest
        types[type] = figures == Figures() ? nil : figures
    }

    /// The types whose figures differ between `self` and `other`, sorted.
    public func differences(from other: ReplicaChecksums) -> [String] {
        Set(types.keys).union(other.types.keys).filter { self[$0] != other[$0] }.sorted()
    }
}
