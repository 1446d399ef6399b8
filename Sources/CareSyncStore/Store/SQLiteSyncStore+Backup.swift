import CareSyncCore
import Foundation

extension SQLiteSyncStore {
    /// Writes a consistent copy of the store to `path` while writers keep running.
    ///
    /// The copy gets a NEW store id, so a client's anchor can never silently skip changes after the copy
    /// is restored: the live store may have handed out anchors beyond the copy's head, and the copy will
    /// reuse those sequence numbers for different changes. The copy remembers the old id in
    /// `store_lineage` with its head at copy time: old anchors up to that head (which name changes the
    /// copy holds) stay valid; later ones are `invalidAnchor` and the client restarts.
    /// Returns the copy's store id and the head it was taken at.
    @discardableResult
    public func backup(to path: String) throws -> (storeID: String, head: Int64) {
        var copied: (String, Int64) = ("", 0)
        try database.backup(to: path) { copy in
            let oldID = try StoreQueries.storeID(copy)
            let head = try StoreQueries.head(copy)
            try copy.execute("INSERT OR REPLACE INTO store_lineage (store_id, valid_through) VALUES (?, ?)",
                             [.text(oldID), .integer(head)])
            let newID = UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
            try StoreQueries.setMeta(copy, "store_id", newID)
            copied = (newID, head)
        }
        return copied
    }
}
