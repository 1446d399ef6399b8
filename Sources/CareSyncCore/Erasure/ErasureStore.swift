import Foundation

/// Who erases which patient, and when: what the receipt in the audit log records.
public struct ErasureRequest: Hashable, Sendable {
    /// The patient whose data is erased.
    public var patient: String
    /// The caller's token id (`cli` for the command line).
    public var tokenID: String
    /// The caller's role (always admin).
    public var role: Role
    /// When the erasure runs.
    public var time: Date
    /// A request.
    public init(patient: String, tokenID: String, role: Role = .admin, time: Date) {
        self.patient = patient; self.tokenID = tokenID; self.role = role; self.time = time
    }
}

/// The erasure of a patient (docs/security.md "Erasure"): every row of theirs in every table, in one transaction of
/// the database that holds them all, with the receipt written into the audit log in that same transaction.
///
/// The rows it removes are listed in one place per backend (CareSyncStoreCore's `PatientErasurePlan`): a new table
/// keyed by patient joins the erasure by adding one line there. Methods are blocking and thread-safe.
public protocol ErasureStore: Sendable {
    /// Erases the patient's data, deletes their tokens, remembers the id as erased (it is never created again) and
    /// stores the receipt; nil when there is no such patient (nothing changes then). On SQLite it also overwrites the
    /// freed bytes and truncates the WAL; on PostgreSQL it vacuums the tables it touched (docs/deployment.md).
    func erase(_ request: ErasureRequest) throws -> ErasureReceipt?
    /// Whether `patient` was erased (its id can never name a patient again).
    func wasErased(_ patient: String) throws -> Bool
    /// How many ids were erased so far, by any process on the database (`ReachWatch` compares it).
    func erasedCount() throws -> Int
}
