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

    /// A device token of a patient.
    public struct Device: Hashable, Sendable {
        /// The patient the token writes for.
        public let patient: String
        /// The token's id.
        public let token: String
        /// The pair.
        public init(patient: String, token: String) { self.patient = patient; self.token = token }
    }

    /// A reader of `access`'s audit log.
    public init(access: any AccessStore, scanLimit: Int = 5_000) { self.access = access; self.scanLimit = scanLimit }

    /// The time of the newest successful sample write by `token` for `patient`, or nil within the scan limit.
    public func time(patient: String, token: String) throws -> Date? {
        let device = Device(patient: patient, token: token)
        return try times(of: [device])[device]
    }

    /// The time of each device's newest successful sample write within the scan limit (absent: none found), the
    /// devices' pages read together, one audit call per round.
    public func times(of devices: [Device]) throws -> [Device: Date] {
        struct Scan { let device: Device; var before: Int64?; var scanned = 0 }
        var found: [Device: Date] = [:]
        var scans = Set(devices).map { Scan(device: $0) }
        // Pages grow from 16 records: a device's last write is usually among its newest few, so most scans read 16.
        var size = 16
        while !scans.isEmpty {
            let limits = scans.map { min(size, scanLimit - $0.scanned) }
            let pages = try access.audit(zip(scans, limits).map { scan, limit in
                AuditQuery(patient: scan.device.patient, tokenID: scan.device.token, before: scan.before, limit: limit)
            })
            var next: [Scan] = []
            for ((var scan, limit), page) in zip(zip(scans, limits), pages) {
                if let hit = page.first(where: { Self.receivingActions.contains($0.action) && $0.status == 200 && $0.count > 0 }) {
                    found[scan.device] = hit.time
                    continue
                }
                guard page.count == limit, let last = page.last else { continue }
                scan.before = last.id
                scan.scanned += page.count
                if scan.scanned < scanLimit { next.append(scan) }
            }
            scans = next
            size = min(size * 4, 500)
        }
        return found
    }
}
