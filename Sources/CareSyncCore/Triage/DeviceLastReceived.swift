import Foundation

/// When the server last received samples from a device token: the newest successful `samples.upsert` (status 200, at
/// least one sample) in the audit log, which records it in the write's own transaction (docs/status.md).
public struct DeviceLastReceived: Sendable {
    /// The audit log.
    public let access: any AccessStore
    /// The most audit records read per token, newest first.
    public var scanLimit: Int

    /// The audit actions that mean "samples received from this token".
    public static let receivingActions: Set<String> = ["samples.upsert"]

    /// A reader of `access`'s audit log.
    public init(access: any AccessStore, scanLimit: Int = 5_000) { self.access = access; self.scanLimit = scanLimit }

    /// The time of the newest successful sample write by `token` for `patient`, or nil within the scan limit.
    public func time(patient: String, token: String) throws -> Date? {
        var before: Int64?
        var scanned = 0
        // Pages grow from 16 records: a device's last write is usually among its newest few, so most scans read 16.
        var size = 16
        while scanned < scanLimit {
            let limit = min(size, scanLimit - scanned)
            let page = try access.audit(AuditQuery(patient: patient, tokenID: token, before: before, limit: limit))
            if let hit = page.first(where: { Self.receivingActions.contains($0.action) && $0.status == 200 && $0.count > 0 }) {
                return hit.time
            }
            guard page.count == limit, let last = page.last else { return nil }
            before = last.id
            scanned += page.count
            size = min(size * 4, 500)
        }
        return nil
    }
}
