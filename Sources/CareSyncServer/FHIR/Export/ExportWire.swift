import CareSyncCore
import Foundation

/// The JSON of a bulk export: the lines of its NDJSON files and its manifest (docs/fhir.md, "Bulk export").
enum ExportWire {
    /// The manifest extension naming the anchor to pass as `_since` next time.
    static let nextSinceExtension = "caresyncNextSince"

    /// One line of a `deleted` file: a transaction Bundle with one DELETE entry per deleted Observation, as the
    /// Bulk Data specification's `deleted` array asks; `meta.lastUpdated` is the latest deletion in it.
    static func deletedBundle(_ objects: [DeletedObject]) -> JSONValue {
        var bundle: [String: JSONValue] = [
            "resourceType": "Bundle",
            "type": "transaction",
            "entry": .array(objects.map { object in
                ["request": ["method": "DELETE", "url": .string("Observation/" + ObservationMapper.id(of: object.uuid))]]
            }),
        ]
        if let latest = objects.map(\.deletedAt).max() { bundle["meta"] = ["lastUpdated": .string(RFC3339.format(latest))] }
        return .object(bundle)
    }

    /// The manifest of a completed export: `transactionTime`, `request`, `requiresAccessToken`, `output`, `deleted`,
    /// `error` (always empty: an export either completes whole or fails whole) and the `extension` object with the next
    /// `_since` (Bulk Data 2.0: the name `extension` is reserved for a server's own fields, its value a JSON object).
    static func manifest(_ job: BulkExportRecord, _ result: ExportResult) -> JSONValue {
        func files(_ list: [ExportResult.File], type: String) -> JSONValue {
            .array(list.map { ["type": .string(type), "url": .string(job.fileURL($0.name)), "count": .exactly(Int64($0.count))] })
        }
        return [
            "transactionTime": .string(RFC3339.format(result.transactionTime)),
            "request": .string(job.request),
            "requiresAccessToken": true,
            "output": files(result.output, type: "Observation"),
            "deleted": files(result.deleted, type: "Bundle"),
            "error": [],
            "extension": .object([nextSinceExtension: .string(result.nextSince)]),
        ]
    }

    /// An OperationOutcome with one issue of `severity` (`information` for an accepted kick-off or cancel).
    static func outcome(severity: String, code: String, _ diagnostics: String) -> JSONValue {
        ["resourceType": "OperationOutcome",
         "issue": [["severity": .string(severity), "code": .string(code), "diagnostics": .string(diagnostics)]]]
    }
}
