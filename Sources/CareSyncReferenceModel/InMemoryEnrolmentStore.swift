import Foundation
import CareSyncCore
import CareSyncLocking

/// An `EnrolmentStore` in memory, checking patients against an `AccessStore` as the databases' foreign keys do.
public final class InMemoryEnrolmentStore: EnrolmentStore {
    private struct State {
        var enrolments: [String: EnrolmentRecord] = [:]
        var sources: [String: [String: DeviceSourceRecord]] = [:]
    }
    private let state = Locked(State())
    private let access: any AccessStore

    /// An empty store whose patients are `access`'s.
    public init(access: any AccessStore) { self.access = access }

    public func insertEnrolment(_ enrolment: EnrolmentRecord) throws {
        guard try access.patient(id: enrolment.patient) != nil else { throw AccessStoreError.missing("patient \(enrolment.patient)") }
        try state.withLock { s in
            guard s.enrolments[enrolment.id] == nil, !s.enrolments.values.contains(where: { $0.codeHash == enrolment.codeHash }) else {
                throw AccessStoreError.alreadyExists("enrolment \(enrolment.id)")
            }
            s.enrolments[enrolment.id] = Self.stored(enrolment)
        }
    }
    public func enrolment(id: String) throws -> EnrolmentRecord? { state.withLock { $0.enrolments[id] } }
    public func pendingEnrolments(patient: String, at now: Date) throws -> [EnrolmentRecord] {
        state.withLock { s in
            s.enrolments.values.filter { $0.patient == patient && $0.isPending(at: now) }.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
        }
    }
    public func cancelEnrolment(id: String, at now: Date) throws -> Bool {
        state.withLock { s in
            guard var e = s.enrolments[id], e.isPending(at: now) else { return false }
            e.cancelledAt = Self.millisecond(now)
            s.enrolments[id] = e
            return true
        }
    }
    public func claimEnrolment(codeHash: [UInt8], at now: Date) throws -> EnrolmentRecord? {
        state.withLock { s in
            guard var e = s.enrolments.values.first(where: { $0.codeHash == codeHash && $0.isPending(at: now) }) else { return nil }
            e.redeemedAt = Self.millisecond(now)
            s.enrolments[e.id] = e
            return e
        }
    }
    public func releaseEnrolment(id: String) throws {
        state.withLock { s in
            guard var e = s.enrolments[id], e.tokenID == nil else { return }
            e.redeemedAt = nil
            s.enrolments[id] = e
        }
    }
    public func completeEnrolment(id: String, device: DeviceSourceRecord) throws {
        state.withLock { s in
            s.enrolments[id]?.tokenID = device.tokenID
            var stored = device
            stored.enrolledAt = Self.millisecond(device.enrolledAt)
            s.sources[device.patient, default: [:]][device.source] = stored
        }
    }
    public func deviceSources(patients: [String]) throws -> [String: [DeviceSourceRecord]] {
        state.withLock { s in
            Dictionary(patients.map { ($0, (s.sources[$0] ?? [:]).values.sorted { $0.source < $1.source }) }, uniquingKeysWith: { a, _ in a })
        }
    }

    /// Times at the databases' millisecond precision, so every store answers alike.
    private static func millisecond(_ d: Date) -> Date { SyncRules.date(milliseconds: SyncRules.milliseconds(d)) }
    private static func stored(_ e: EnrolmentRecord) -> EnrolmentRecord {
        var e = e
        e.createdAt = millisecond(e.createdAt); e.expiresAt = millisecond(e.expiresAt)
        e.redeemedAt = e.redeemedAt.map(millisecond); e.cancelledAt = e.cancelledAt.map(millisecond)
        return e
    }
}
