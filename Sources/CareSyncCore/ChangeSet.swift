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

    /// Creates a value from its fields.
    public init(patient: String, anchor: Anchor? = nil, types: Set<SampleType>? = nil, limit: Int = 500,
                from: Date? = nil, to: Date? = nil, source: String? = nil) {
        self.patient = patient; self.anchor = anchor; self.types = types; self.limit = limit
        self.from = from; self.to = to; self.source = source
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
    /// Creates a value from its fields.
    public init(samples: [Sample], deletedObjects: [DeletedObject], anchor: Anchor, hasMore: Bool) {
        self.samples = samples; self.deletedObjects = deletedObjects; self.anchor = anchor; self.hasMore = hasMore
    }
}
