import Foundation
import CareSyncClient

/// Gives each mapped sample its sync identifier and version, and finds what an export no longer holds.
///
/// An Apple Health export is a full snapshot of its sources, so a re-import makes the server equal to it:
/// - **Identifier.** The source's `HKMetadataKeySyncIdentifier` when it gave one (with its own version);
///   otherwise `export-` and a digest of source name, HealthKit type, start and end (as UTC instants: the
///   export writes the phone's current time zone) and device (its address removed), plus the food
///   correlation for a food component, plus `#n` for the n-th repeat of that key in the export. Not the value, the unit, `creationDate` or `sourceVersion`: an edit or an app update keeps
///   the reading's identity.
/// - **Version.** The importer reads what the agent's source stored before (``previous``). A reading stored
///   with the same content digest (`importDigest` metadata: type, value or components, unit, dates,
///   metadata) keeps its version (`ignored`); a changed one gets the next version (`replaced`); a new one 1.
/// - **Gone.** Stored readings of the export's sources and types that this export no longer holds.
///
/// `--add-only` (``previous`` nil) keeps the earlier agents' rule: the identity includes value and unit,
/// version 1, so an edited reading is added beside the old one and nothing is ever deleted.
public struct ExportIdentity: Sendable {
    /// A sample the agent's source stored before, by sync identifier.
    public struct Stored: Sendable, Hashable {
        /// Its sync version.
        public var syncVersion: Int
        /// Its `importDigest` metadata (nil when an earlier agent wrote it).
        public var digest: String?
        /// Its `sourceName` metadata.
        public var sourceName: String?
        /// Its type.
        public var type: String

        /// A stored sample from its fields.
        public init(syncVersion: Int, digest: String?, sourceName: String?, type: String) {
            (self.syncVersion, self.digest, self.sourceName, self.type) = (syncVersion, digest, sourceName, type)
        }
    }

    /// What was stored before and is not yet matched by this export; nil for `--add-only`.
    private var previous: [String: Stored]?
    private var repeats: [ExportDigest: Int] = [:]
    private var foodRepeats: [String: Int] = [:]
    /// Source names and CareSync types of the samples this export holds.
    public private(set) var sources: Set<String> = []
    public private(set) var types: Set<String> = []

    /// An identity over `previous` (by sync identifier), or nil for `--add-only`.
    public init(previous: [String: Stored]?) {
        self.previous = previous
    }

    /// The draft of `mapped` with its sync identifier, version and `importDigest`.
    public mutating func assign(_ mapped: MappedSample) -> SampleDraft {
        var draft = mapped.draft
        let digest = Self.contentDigest(draft)
        draft.metadata = (draft.metadata ?? [:]).merging([ExportMetadata.digestKey: .string(digest)]) { _, new in new }
        sources.insert(mapped.sourceName)
        types.insert(draft.type)
        // A food holds the export's readings of its component types too (an earlier agent stored them alone).
        if draft.componentUnits != nil { types.formUnion(draft.components?.keys.map { $0 } ?? []) }
        if let given = mapped.givenIdentifier, let version = mapped.givenVersion {
            draft.syncIdentifier = given
            draft.syncVersion = version
            previous?.removeValue(forKey: given)
        } else if previous == nil {
            draft.syncIdentifier = "export-" + ExportDigest(fields: mapped.addOnlyIdentity).hex
            draft.syncVersion = 1
        } else {
            let key = ExportDigest(fields: mapped.identity)
            let n = repeats[key, default: 0]
            repeats[key] = n + 1
            let identifier = "export-" + (n == 0 ? key.hex : ExportDigest(fields: mapped.identity + ["#\(n)"]).hex)
            draft.syncIdentifier = identifier
            if let stored = previous?.removeValue(forKey: identifier) {
                draft.syncVersion = stored.digest == digest ? stored.syncVersion : stored.syncVersion + 1
            } else {
                draft.syncVersion = 1
            }
        }
        return draft
    }

    /// A food correlation's stable id (``RecordMapper/foodCorrelationID(_:)``), `#n` added for the n-th food
    /// of the same name, source and time in the export; nil for other correlations.
    public mutating func foodID(_ correlation: HealthCorrelation) -> String? {
        guard correlation.type == RecordMapper.food else { return nil }
        let base = RecordMapper.foodCorrelationID(correlation)
        guard RecordMapper.given(correlation.metadata) == nil else { return base }
        let n = foodRepeats[base, default: 0]
        foodRepeats[base] = n + 1
        return n == 0 ? base : base + "#\(n)"
    }

    /// Sync identifiers stored before, of this export's sources and types, that the export no longer holds.
    public func gone() -> [String] {
        guard let previous else { return [] }
        return previous.filter { _, stored in
            stored.sourceName.map(sources.contains) == true && types.contains(stored.type)
        }.keys.sorted()
    }

    /// The digest of what a sample says: type, value or components, unit, dates and metadata.
    static func contentDigest(_ draft: SampleDraft) -> String {
        var fields = [draft.type, draft.unit ?? "", Instant.format(draft.start), Instant.format(draft.end)]
        if let components = draft.components {
            fields += components.keys.sorted().map { "\($0)=\(components[$0]!)" }
            let units = draft.componentUnits ?? [:]
            fields += units.keys.sorted().map { "\($0)@\(units[$0]!)" }
        } else {
            fields.append("\(draft.value)")
        }
        let metadata = draft.metadata ?? [:]
        for key in metadata.keys.sorted() where key != ExportMetadata.digestKey {
            switch metadata[key]! {
            case .string(let text): fields.append("\(key)=s:\(text)")
            case .number(let number): fields.append("\(key)=n:\(number)")
            case .bool(let flag): fields.append("\(key)=b:\(flag)")
            }
        }
        return ExportDigest(fields: fields).hex
    }
}
