import CareSyncCore
import Foundation

/// What the model holds for one patient, for tests to compare a store's rebuilt state against.
public struct ModelSnapshot: Hashable, Sendable {
    /// Live samples by uuid.
    public var samples: [UUID: Sample]
    /// Kept tombstones by uuid.
    public var deletedObjects: [UUID: DeletedObject]
    /// Creates a snapshot.
    public init(samples: [UUID: Sample], deletedObjects: [UUID: DeletedObject]) {
        self.samples = samples; self.deletedObjects = deletedObjects
    }
}
