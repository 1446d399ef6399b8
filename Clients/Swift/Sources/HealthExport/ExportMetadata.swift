import Foundation
import CareSyncClient

/// A sample's metadata built from an export's attributes and `<MetadataEntry>`s, within the server's limits.
///
/// Kept first: `sourceName`, `wasUserEntered` (from `HKWasUserEntered`), `device`, then the importer's own
/// keys (`foodCorrelation`), then every other entry by key, verbatim (values stay the strings the export
/// wrote). `HKMetadataKeySyncIdentifier`/`…SyncVersion` become the sample's sync identity, not metadata.
/// Room is kept for `importDigest`; an entry that does not fit is listed in `dropped`.
struct ExportMetadata {
    /// The server's limits (docs/api.md, SampleValidator): 64 keys, 4,096 bytes of compact JSON.
    static let maxKeys = 64
    static let maxBytes = 4_096
    /// The key carrying the content digest the importer compares on a re-import.
    static let digestKey = "importDigest"
    /// Keys that are the sync identity, never metadata.
    static let syncKeys: Set<String> = ["HKMetadataKeySyncIdentifier", "HKMetadataKeySyncVersion"]

    private(set) var values: [String: MetadataValue] = [:]
    private(set) var dropped: [String] = []
    /// The compact JSON size so far, counted as the server counts it (strings unescaped).
    private var size = 2

    /// Metadata with room for `importDigest` (one key, a 32-digit hex string).
    init() {
        size += Self.entrySize(Self.digestKey, .string(String(repeating: "0", count: 32))) + 1
    }

    /// Adds `key` unless it is already set; records it in `dropped` when it does not fit.
    mutating func add(_ key: String, _ value: MetadataValue) {
        guard values[key] == nil else { return }
        let grown = size + Self.entrySize(key, value) + 1
        guard !key.isEmpty, values.count + 1 < Self.maxKeys, grown <= Self.maxBytes else {
            dropped.append(key.isEmpty ? "(empty key)" : key)
            return
        }
        values[key] = value
        size = grown
    }

    /// Adds the record-level keys, then the importer's `own` keys, then `entries` by key.
    mutating func add(sourceName: String, device: String?, own: [String: MetadataValue] = [:], entries: [String: String]) {
        add("sourceName", .string(sourceName))
        if let entered = entries["HKWasUserEntered"] { add("wasUserEntered", .bool(entered == "1" || entered == "true")) }
        if let device { add("device", .string(Self.device(device))) }
        for key in own.keys.sorted() { add(key, own[key]!) }
        add(entries: entries)
    }

    /// Adds `entries` by key, leaving out the sync keys and `HKWasUserEntered` (kept as `wasUserEntered`).
    mutating func add(entries: [String: String]) {
        for key in entries.keys.sorted() where !Self.syncKeys.contains(key) && key != "HKWasUserEntered" {
            add(key, .string(entries[key]!))
        }
    }

    /// A key and value's share of the compact JSON (`"key":value`), without the comma.
    static func entrySize(_ key: String, _ value: MetadataValue) -> Int {
        let valueSize: Int
        switch value {
        case .string(let text): valueSize = text.utf8.count + 2
        case .number(let number): valueSize = "\(number)".utf8.count
        case .bool(let flag): valueSize = flag ? 4 : 5
        }
        return key.utf8.count + 3 + valueSize
    }

    /// The export's device description without the object address it changes on every export:
    /// `<<HKDevice: 0x2837a1c20>, name:Apple Watch, model:Watch>` → `name:Apple Watch, model:Watch`.
    static func device(_ text: String) -> String {
        guard text.hasPrefix("<<HKDevice:"), let open = text.range(of: ">, ") else { return text }
        var rest = text[open.upperBound...]
        if rest.hasSuffix(">") { rest = rest.dropLast() }
        return String(rest)
    }
}
