import Foundation
import CareSyncClient

extension HealthImporter {
    /// What the agent's source holds for the patient, by sync identifier: the feed from no anchor filtered
    /// to the token's source (the server is the record of what was uploaded, whichever machine did it).
    static func stored(client: CareSyncClient, patient: String) async throws -> [String: ExportIdentity.Stored] {
        let source = try await client.whoami().source
        var live: [UUID: (String, ExportIdentity.Stored)] = [:]
        var anchor: String?
        var page: ChangePage
        repeat {
            page = try await client.changes(patient: patient, anchor: anchor, filter: FeedFilter(source: source), limit: 5_000)
            for sample in page.samples {
                guard let identifier = sample.syncIdentifier, let version = sample.syncVersion else { continue }
                live[sample.uuid] = (identifier, ExportIdentity.Stored(
                    syncVersion: version, digest: sample.metadata[ExportMetadata.digestKey]?.text,
                    sourceName: sample.metadata["sourceName"]?.text, type: sample.type))
            }
            for deleted in page.deletedObjects { live[deleted.uuid] = nil }
            anchor = page.anchor
        } while page.hasMore
        return Dictionary(live.values.map { ($0.0, $0.1) }, uniquingKeysWith: { a, b in a.syncVersion >= b.syncVersion ? a : b })
    }
}

extension MetadataValue {
    /// The string, if this is one.
    var text: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}
