import CareSyncCore
import Foundation

/// A patient's erasure over either backend, inside a write transaction the caller opened: the plan's statements,
/// the id remembered as erased, and the receipt's audit records, all or nothing.
public struct PatientEraser<DB: QueryConnection>: Sendable {
    /// The dialect's statements.
    public let plan: PatientErasurePlan

    /// An eraser running `plan`.
    public init(plan: PatientErasurePlan) { self.plan = plan }

    /// Erases `request.patient` on `db` (in its transaction); nil, with nothing changed, when there is no such patient.
    public func erase(_ db: DB, _ request: ErasureRequest) throws -> ErasureReceipt? {
        let patient: [QueryValue] = [.text(request.patient)]
        guard try db.fetchFirst(plan.lookup, patient, { _ in true }) != nil else { return nil }
        if let serialize = plan.serialize { try db.run(serialize, []) }
        let tokenIDs = try db.fetch(plan.tokens, patient) { try $0.text(0) }
        let counts = try plan.steps.map { step in ErasedCount(kind: step.kind, count: try db.runCounting(step.sql, patient)) }
        try db.run(plan.remember, [.text(request.patient), .integer(SyncRules.milliseconds(request.time))])
        let receipt = ErasureReceipt(request: request, counts: counts, tokenIDs: tokenIDs)
        for record in receipt.auditRecords {
            try db.run(plan.audit, [.integer(SyncRules.milliseconds(record.time)), .text(record.tokenID), .text(record.role.rawValue),
                                    .text(request.patient), .text(record.action), .integer(Int64(record.count)),
                                    .integer(Int64(record.status))])
        }
        return receipt
    }

    /// Throws `ErasedPatientWrite` when `patient` was erased, and otherwise holds the patient's row (PostgreSQL) for the
    /// rest of `db`'s transaction, so an erasure waits for it and then removes what it wrote. A write keyed by patient
    /// outside the sync store calls it in its transaction before its rows.
    public func refuseErased(_ db: DB, _ patient: String) throws {
        if try holdingWasErased(db, patient) { throw ErasedPatientWrite(patient: patient) }
    }

    /// Whether `patient` was erased, after holding the patient's row as `refuseErased` does: for a write that skips an
    /// erased patient instead of failing (an alert evaluation covers many patients).
    public func holdingWasErased(_ db: DB, _ patient: String) throws -> Bool {
        if let hold = plan.holdPatient { _ = try db.fetchFirst(hold, [.text(patient)], { _ in true }) }
        return try wasErased(db, patient)
    }

    /// How many ids were erased.
    public func erasedCount(_ db: DB) throws -> Int {
        Int(try db.fetchFirst(plan.erasedCount, [], { try $0.integer(0) }) ?? 0)
    }

    /// Whether `patient` was erased.
    public func wasErased(_ db: DB, _ patient: String) throws -> Bool {
        try db.fetchFirst(plan.erased, [.text(patient)], { _ in true }) != nil
    }
}
