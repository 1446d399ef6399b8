import Foundation

/// What an erasure removed: counts per kind of item, never a value. The audit log keeps it as records (`auditRecords`).
public struct ErasureReceipt: Hashable, Sendable {
    /// The request it answers.
    public var request: ErasureRequest
    /// How many items of each kind were removed, in the plan's order (kinds with none included, as 0).
    public var counts: [ErasedCount]
    /// The ids of the patient's tokens, deleted with them (their parked polls and streams are to be interrupted).
    public var tokenIDs: [String]
    /// Whether the clean-up after the commit finished: SQLite vacuumed the file and truncated the WAL; PostgreSQL
    /// vacuumed the tables it touched (docs/deployment.md "Erasure"). False: the rows are gone, the bytes may linger.
    public var cleanupComplete: Bool

    /// A receipt.
    public init(request: ErasureRequest, counts: [ErasedCount], tokenIDs: [String], cleanupComplete: Bool = false) {
        self.request = request; self.counts = counts; self.tokenIDs = tokenIDs; self.cleanupComplete = cleanupComplete
    }

    /// Every item removed.
    public var total: Int { counts.reduce(0) { $0 + $1.count } }

    /// The count of one kind (0 when the plan has no such kind).
    public func count(of kind: String) -> Int { counts.first { $0.kind == kind }?.count ?? 0 }

    /// The audit action of the summary record; each kind's record is `patient.erase.<kind>`.
    public static let action = "patient.erase"

    /// The receipt as audit records: `patient.erase` with the total, then one `patient.erase.<kind>` per kind with its
    /// count; all with the caller, the time, the patient and status 200. No values, no metadata.
    public var auditRecords: [AuditRecord] {
        [record(Self.action, total)] + counts.map { record("\(Self.action).\($0.kind)", $0.count) }
    }

    private func record(_ action: String, _ count: Int) -> AuditRecord {
        AuditRecord(time: request.time, tokenID: request.tokenID, role: request.role, patient: request.patient,
                    action: action, count: count, status: 200)
    }
}

/// How many items of one kind an erasure removed.
public struct ErasedCount: Hashable, Sendable {
    /// The kind, as named in the receipt (`samples`, `tombstones`, `reports`, …).
    public var kind: String
    /// How many.
    public var count: Int
    /// A count.
    public init(kind: String, count: Int) { self.kind = kind; self.count = count }
}
