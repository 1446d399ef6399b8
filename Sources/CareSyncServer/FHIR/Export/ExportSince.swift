import CareSyncCore
import Foundation

/// The `_since` of a bulk export: nothing (everything), a CareSync anchor (exactly the changes after it), or an
/// instant (docs/fhir.md, "Bulk export"): the changes committed at or after it, which the kick-off turns into the
/// anchor of the highest position committed before it (`resolved`), so both run the same feed.
enum ExportSince: Hashable, Sendable {
    /// No `_since`: every live Observation and every kept deletion.
    case none
    /// A feed anchor (the previous manifest's `caresyncNextSince`, or any feed anchor of this store); after a `Group`
    /// export also the last care-team membership it saw (`members`), so a patient who joined since comes whole.
    case anchor(Anchor, members: Int64?)
    /// A FHIR instant, as parsed: the changes committed at or after it (`resolved` makes it an anchor).
    case instant(Date)

    /// Parses `_since`: an RFC 3339 date-time with an offset is an instant; anything else must be a sealed anchor,
    /// optionally followed by `~` and a `Group` export's membership mark (`token(_:members:)`).
    static func parse(_ text: String, anchors: AnchorWire) throws(FHIRError) -> ExportSince {
        if let instant = RFC3339.parse(text) { return .instant(instant) }
        if text.contains(":") {
            throw .invalid("'_since' must be a FHIR instant with a time zone (send '+' as %2B) or a CareSync anchor (caresyncNextSince).")
        }
        let parts = text.split(separator: "~", maxSplits: 1, omittingEmptySubsequences: false)
        var members: Int64?
        if parts.count == 2 {
            guard let mark = Int64(parts[1]), mark >= 0, String(mark) == parts[1] else {
                throw .invalid("'_since' is neither a FHIR instant nor an anchor of this server: use a manifest's caresyncNextSince as given.")
            }
            members = mark
        }
        do {
            return .anchor(try anchors.decode(String(parts[0])), members: members)
        } catch {
            throw .invalid("'_since' is neither a FHIR instant nor an anchor of this server: use a manifest's caresyncNextSince as given.")
        }
    }

    /// The anchor the feed reads after (nil: from the beginning).
    var anchor: Anchor? {
        if case .anchor(let anchor, _) = self { return anchor }
        return nil
    }

    /// The membership mark of a `Group` export's `_since` (nil: none given).
    var members: Int64? {
        if case .anchor(_, let members) = self { return members }
        return nil
    }

    /// The `caresyncNextSince` of an export that read through `anchor` (sealed), with a `Group` export's membership mark.
    static func token(_ anchor: String, members: Int64?) -> String { members.map { "\(anchor)~\($0)" } ?? anchor }

    /// An instant as the anchor of the highest position committed before it (`SyncStore.position(committedBefore:)`),
    /// stamped with horizon 0: below a purge horizon it is expired, as an anchor older than a purge is. Else itself.
    func resolved(in store: any SyncStore) throws -> ExportSince {
        guard case .instant(let instant) = self else { return self }
        return .anchor(Anchor(storeID: store.storeID, sequence: try store.position(committedBefore: instant), horizon: 0), members: nil)
    }
}
