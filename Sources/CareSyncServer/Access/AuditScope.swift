import CareSyncCore
import CareSyncLocking
import Foundation

/// The audit record one request will leave, and whether its write already stored it in its own
/// transaction (then the write and its record commit or vanish together).
final class AuditScope: Sendable {
    let principal: Principal
    let patient: String?
    let action: String
    private let stored = Locked(false)

    /// The scope of `principal` doing `action` to `patient` (nil for an admin action on no patient).
    init(principal: Principal, patient: String?, action: String) {
        self.principal = principal; self.patient = patient; self.action = action
    }

    /// The record of this request, answered with `status`, carrying `count` items.
    func record(count: Int, status: Int, time: Date) -> AuditRecord {
        AuditRecord(time: time, tokenID: principal.tokenID, role: principal.role, patient: patient,
                    action: action, count: count, status: status)
    }

    /// Whether the record was committed with the request's write.
    var isStored: Bool { stored.withLock { $0 } }

    /// Notes that the record was committed with the request's write.
    func markStored() { stored.withLock { $0 = true } }
}
