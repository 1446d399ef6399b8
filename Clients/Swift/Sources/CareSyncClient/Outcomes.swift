import Foundation

/// What a write did to one item; a string value so outcomes added later still decode.
public struct Outcome: RawRepresentable, Codable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
    public var description: String { rawValue }

    /// Stored as new.
    public static let inserted = Outcome(rawValue: "inserted")
    /// Replaced a lower version (one tombstone, one new sample).
    public static let replaced = Outcome(rawValue: "replaced")
    /// Nothing changed (`reason` says why).
    public static let ignored = Outcome(rawValue: "ignored")
    /// A delete removed a live sample.
    public static let deleted = Outcome(rawValue: "deleted")
    /// A delete found no live sample.
    public static let notFound = Outcome(rawValue: "notFound")
    /// A delete named another source's sample.
    public static let notOwned = Outcome(rawValue: "notOwned")
}

/// The outcome of one pushed sample.
public struct UpsertResult: Codable, Sendable, Hashable {
    /// The sample's position in the whole push (not just its batch).
    public var index: Int
    /// The stored sample's uuid (for `ignored`, the sample that stays).
    public var uuid: UUID
    /// `inserted`, `replaced` or `ignored`.
    public var outcome: Outcome
    /// For `ignored`: `sameVersion`, `olderVersion` or `duplicateUUID`.
    public var reason: String?
}

/// The answer to one `POST …/samples`.
public struct UpsertAnswer: Codable, Sendable, Hashable {
    /// The position just after this write (not a feed anchor).
    public var anchor: String
    /// One result per sample, in request order.
    public var results: [UpsertResult]
}

/// The outcome of pushing many samples, possibly in several batches.
public struct PushResult: Sendable, Hashable {
    /// One result per pushed sample, in the order given.
    public var results: [UpsertResult]
    /// How many requests were sent, retries included.
    public var requests: Int
    /// The anchor after the last batch.
    public var anchor: String?

    /// Results with `outcome` equal to `outcome`.
    public func count(_ outcome: Outcome) -> Int { results.filter { $0.outcome == outcome }.count }
}

/// The answer to `POST …/samples/delete`: one result per target.
public struct DeleteAnswer: Codable, Sendable, Hashable {
    /// One deletion target's outcome.
    public struct Result: Codable, Sendable, Hashable {
        /// The deleted (or named) sample's uuid.
        public var uuid: UUID?
        /// The sync identifier target, if the target was one.
        public var syncIdentifier: String?
        /// `deleted`, `notFound` or `notOwned`.
        public var outcome: Outcome
    }
    /// The position just after this write.
    public var anchor: String
    /// Uuids first, then sync identifiers, each in request order.
    public var results: [Result]
}
