import Foundation

/// A request for the anchored change feed: the server side of `HKAnchoredObjectQuery`.
public struct ChangeQuery: Hashable, Sendable {
    /// Whose feed to read.
    public var patient: String
    /// nil reads from the beginning.
    public var anchor: Anchor?
    /// nil means every type.
    public var types: Set<SampleType>?
    /// Samples and deleted objects together, 1...5000.
    public var limit: Int
    /// Optional sample time range: samples overlapping `[from, to)`.
    public var from: Date?
    /// End of the optional time range (exclusive): items starting before it.
    public var to: Date?
    /// Only changes written by this source; nil for every source.
    public var source: String?
    /// The last change-log sequence to read (a head captured earlier): nothing past it is read, and the last page's
    /// anchor is at most this position; nil reads to the head. A bulk export reads every patient to one position with it.
    public var through: Int64?
    /// Whether the page carries each sample's write time (`ChangeSet.writeTimes`); the sync feed does without.
    public var writeTimes: Bool

    /// Creates a value from its fields.
    public init(patient: String, anchor: Anchor? = nil, types: Set<SampleType>? = nil, limit: Int = 500,
                from: Date? = nil, to: Date? = nil, source: String? = nil, through: Int64? = nil, writeTimes: Bool = false) {
        self.patient = patient; self.anchor = anchor; self.types = types; self.limit = limit
        self.from = from; self.to = to; self.source = source; self.through = through; self.writeTimes = writeTimes
    }
}

extension ChangeQuery {
    /// The anchor position of a last page (`hasMore` false) read after `after` with the store at `head`: the head,
    /// or `through` when that comes first, never before `after`.
    public func lastPosition(head: Int64, after: Int64) -> Int64 {
        max(after, through.map { min($0, head) } ?? head)
    }
}

/// One page of the change feed, in commit order.
///
/// Following `anchor` until `hasMore` is false yields every change exactly once. A sample
/// added and deleted after the request's anchor shows only as a deleted object.
public struct ChangeSet: Hashable, Sendable {
    /// The samples, in order.
    public var samples: [Sample]
    /// Tombstones, in commit order.
    public var deletedObjects: [DeletedObject]
    /// The anchor to read on from.
    public var anchor: Anchor
    /// Whether more changes follow this page.
    public var hasMore: Bool
    /// Each sample's write time (`WriteTimes`) by uuid, when the query asked for them (`ChangeQuery.writeTimes`); else empty.
    public var writeTimes: [UUID: Date]
    /// Creates a value from its fields.
    public init(samples: [Sample], deletedObjects: [DeletedObject], anchor: Anchor, hasMore: Bool, writeTimes: [UUID: Date] = [:]) {
        self.samples = samples; self.deletedObjects = deletedObjects; self.anchor = anchor; self.hasMore = hasMore
        self.writeTimes = writeTimes
    }
}
