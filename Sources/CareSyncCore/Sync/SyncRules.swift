import Foundation

/// HealthKit's sync rules as pure functions, shared by the SQLite store and the reference model.
///
/// A sample with a sync identifier is unique per (patient, source, syncIdentifier). When another one
/// arrives with the same key, the versions decide:
///
///     stored v1, incoming v2  -> .replace   (v1 becomes a tombstone, v2 is stored with a new uuid)
///     stored v2, incoming v2  -> .ignore(.sameVersion)
///     stored v3, incoming v2  -> .ignore(.olderVersion)
///     nothing stored          -> .insert
///
/// A client-supplied uuid must be new: the same uuid with the same content again is ignored
/// (`.duplicateUUID`), with any other content it is a conflict.
public enum SyncRules {
    /// Values closer than this (relative) are the same value: canonical conversion may differ in the last bits.
    public static let valueTolerance = 1e-9

    /// The version rule for an incoming sample whose key is already stored with `stored`.
    public static func versionDecision(stored: Int64, incoming: Int64) -> VersionDecision {
        if incoming > stored { return .replace }
        return .ignore(incoming == stored ? .sameVersion : .olderVersion)
    }

    /// The sync identifier of the sample stored under `key` in the report `report`: `<report>/<key>`.
    public static func derivedSyncIdentifier(report: String, key: String) -> String {
        "\(report)/\(key)"
    }

    /// Whether two canonical values are the same measurement.
    public static func valuesEqual(_ a: Double, _ b: Double) -> Bool {
        if a == b { return true }
        return abs(a - b) <= valueTolerance * max(1, abs(a), abs(b))
    }

    /// Whether two optional values are both absent or the same measurement (a correlation's second component).
    public static func optionalValuesEqual(_ a: Double?, _ b: Double?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return valuesEqual(a, b)
    }

    /// Whether two instants are the same at millisecond precision (the precision the store keeps).
    public static func instantsEqual(_ a: Date, _ b: Date) -> Bool {
        milliseconds(a) == milliseconds(b)
    }

    /// The instant as whole milliseconds since 1970, rounded to the nearest.
    public static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    /// The date for whole milliseconds since 1970.
    public static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// "Content equal" for report samples: the same type, value (every component of a correlation), time
    /// range and metadata.
    /// uuid, sync identifier, version and source are not content.
    public static func contentEqual(_ stored: Sample, _ input: SampleInput) -> Bool {
        stored.type == input.type && valuesEqual(stored.value, input.value)
            && optionalValuesEqual(stored.secondValue, input.secondValue)
            && stored.components.count == input.components.count
            && stored.components.allSatisfy { type, value in input.components[type].map { valuesEqual(value, $0) } ?? false }
            && instantsEqual(stored.start, input.start) && instantsEqual(stored.end, input.end)
            && metadataEqual(stored.metadata, input.metadata)
    }

    /// Metadata equality with numbers compared by `valuesEqual`.
    public static func metadataEqual(_ a: [String: MetadataValue], _ b: [String: MetadataValue]) -> Bool {
        guard a.count == b.count else { return false }
        for (key, left) in a {
            guard let right = b[key] else { return false }
            switch (left, right) {
            case let (.number(x), .number(y)): if !valuesEqual(x, y) { return false }
            default: if left != right { return false }
            }
        }
        return true
    }

    /// The client-uuid rule: `existing` is what the store knows under `incoming.uuid`.
    ///
    /// A live sample of the same patient and source with equal content and the same sync identifier
    /// and version is a retry (`.duplicate`); anything else under that uuid, including a tombstone, is `.conflict`.
    public static func clientUUIDDecision(incoming: SampleInput, patient: String, source: String,
                                          existing: ExistingUUID) -> ClientUUIDDecision {
        switch existing {
        case .unknown:
            return .fresh
        case .deleted:
            return .conflict("uuid names a deleted sample")
        case let .live(sample, storedPatient):
            let same = storedPatient == patient && sample.source == source
                && sample.syncIdentifier == incoming.syncIdentifier && sample.syncVersion == incoming.syncVersion
                && contentEqual(sample, incoming)
            return same ? .duplicate : .conflict("uuid already names another sample")
        }
    }

    /// The whole rule for one item of an upsert batch, given the store's two lookups.
    ///
    /// - `byUUID`: what the store holds under the client's uuid (`.unknown` when the client gave none).
    /// - `byKey`: the live sample of (patient, source, syncIdentifier), nil when none or no identifier.
    /// The uuid rule runs first; then the version rule. A replacing or inserted sample takes the
    /// client's uuid when it gave one, else a new one the store assigns.
    public static func upsertDecision(incoming: SampleInput, patient: String, source: String,
                                      byUUID: ExistingUUID, byKey: Sample?) -> UpsertDecision {
        switch clientUUIDDecision(incoming: incoming, patient: patient, source: source, existing: byUUID) {
        case .duplicate:
            guard let uuid = incoming.uuid else { preconditionFailure("duplicate without a client uuid") }
            return .ignore(.duplicateUUID, existing: uuid)
        case let .conflict(message):
            return .conflict(message)
        case .fresh:
            break
        }
        guard let stored = byKey, let storedVersion = stored.syncVersion, let incomingVersion = incoming.syncVersion else {
            return .insert
        }
        switch versionDecision(stored: storedVersion, incoming: incomingVersion) {
        case .replace: return .replace(stored)
        case let .ignore(reason): return .ignore(reason, existing: stored.uuid)
        }
    }
}
