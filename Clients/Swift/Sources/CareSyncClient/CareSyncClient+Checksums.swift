import Foundation

/// The server's replica checksums at an anchor (`GET …/checksums`).
public struct ServerChecksums: Sendable, Hashable, Decodable {
    /// The anchor the figures hold at (the head when none was asked for).
    public var anchor: String
    /// Per type the caller may read, the samples live at `anchor`.
    public var figures: ReplicaChecksums

    private enum CodingKeys: String, CodingKey { case algorithm, anchor, types }
    private struct Wire: Decodable { var count: Int; var sum: String }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let algorithm = try container.decode(String.self, forKey: .algorithm)
        guard algorithm == ReplicaChecksums.algorithm else {
            throw DecodingError.dataCorruptedError(forKey: .algorithm, in: container,
                                                   debugDescription: "unknown checksum algorithm \(algorithm)")
        }
        anchor = try container.decode(String.self, forKey: .anchor)
        var types: [String: ReplicaChecksums.Figures] = [:]
        for (type, wire) in try container.decode([String: Wire].self, forKey: .types) {
            guard wire.sum.utf8.count == 16, let sum = UInt64(wire.sum, radix: 16) else {
                throw DecodingError.dataCorruptedError(forKey: .types, in: container,
                                                       debugDescription: "\(type): sum \(wire.sum) is not 16 hexadecimal digits")
            }
            types[type] = .init(count: wire.count, sum: sum)
        }
        figures = ReplicaChecksums(types: types)
    }
}

extension CareSyncClient {
    /// The server's figures for `patient` at `anchor` (nil: the head). A 410 `anchorExpired` means
    /// deletions after `anchor` were purged: follow the feed to its end and ask again with its anchor.
    public func checksums(patient: String, anchor: String?) async throws -> ServerChecksums {
        var query: [(String, String)] = []
        if let anchor, !anchor.isEmpty { query.append(("anchor", anchor)) }
        return try await send(Call(method: "GET", path: ["v1", "patients", patient, "checksums"], query: query),
                              as: ServerChecksums.self)
    }

    /// The types whose figures in `replica` differ from the server's at `anchor`, sorted; empty when they agree.
    ///
    /// `anchor` must be the one the replica reached with a page whose `hasMore` was false (a page in the
    /// middle of a catch-up leaves out samples that a later page lists as deleted).
    public func verify(patient: String, anchor: String, against replica: ReplicaChecksums) async throws -> [String] {
        try await checksums(patient: patient, anchor: anchor).figures.differences(from: replica)
    }
}
