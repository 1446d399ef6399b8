import CareSyncCore
import Foundation

/// The `_since` of a bulk export: nothing (everything), a CareSync anchor (exactly the changes after it), or an
/// instant (docs/fhir.md, "Bulk export"). CareSync keeps no write time per sample, so an instant cannot be mapped
/// to a position: it exports every live Observation and the deletions after it, a superset a consumer may apply.
enum ExportSince: Hashable, Sendable {
    /// No `_since`: every live Observation and every kept deletion.
    case none
    /// A feed anchor (the previous manifest's `caresyncNextSince`, or any feed anchor of this store).
    case anchor(Anchor)
    /// A FHIR instant: every live Observation, the deletions at or after it.
    case instant(Date)

    /// Parses `_since`: an RFC 3339 date-time with an offset is an instant; anything else must be a sealed anchor.
    static func parse(_ text: String, anchors: AnchorWire) throws(FHIRError) -> ExportSince {
        if let instant = RFC3339.parse(text) { return .instant(instant) }
        if text.contains(":") {
            throw .invalid("'_since' must be a FHIR instant with a time zone (send '+' as %2B) or a CareSync anchor (caresyncNextSince).")
        }
        do {
            return .anchor(try anchors.decode(text))
        } catch {
            throw .invalid("'_since' is neither a FHIR instant nor an anchor of this server: use a manifest's caresyncNextSince as given.")
        }
    }

    /// The anchor the feed reads after (nil: from the beginning).
    var anchor: Anchor? {
        if case .anchor(let anchor) = self { return anchor }
        return nil
    }

    /// Whether a deletion at `deletedAt` belongs in the export (an instant keeps the deletions from it on).
    func includesDeletion(at deletedAt: Date) -> Bool {
        if case .instant(let since) = self { return deletedAt >= since }
        return true
    }
}
