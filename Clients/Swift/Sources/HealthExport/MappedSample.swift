import Foundation
import CareSyncClient

/// A sample mapped from the export, before the importer gives it its sync identifier and version.
public struct MappedSample: Sendable, Hashable {
    /// The sample, without `syncIdentifier` and `syncVersion`.
    public var draft: SampleDraft
    /// The export's `sourceName` (the app or device that recorded it).
    public var sourceName: String
    /// What identifies the reading across exports: source, HealthKit type, dates, device and, for a food
    /// component, its correlation. Not the value: a re-export with an edited value is the same reading.
    public var identity: [String]
    /// The identity `--add-only` uses, as earlier agents did: source, type, dates, value and unit.
    public var addOnlyIdentity: [String]
    /// `HKMetadataKeySyncIdentifier`, when the source gave one with a valid `HKMetadataKeySyncVersion`.
    public var givenIdentifier: String?
    /// `HKMetadataKeySyncVersion`, with `givenIdentifier`.
    public var givenVersion: Int?
    /// Metadata keys of the export left out because the server's limits had no room for them.
    public var droppedMetadata: [String]
}
