import Foundation

/// Device enrolments and the display names of enrolled sources. Methods are blocking and thread-safe.
public protocol EnrolmentStore: Sendable {
    /// Stores a new enrolment; `AccessStoreError.alreadyExists` when its id or code hash is taken,
    /// `AccessStoreError.missing` when its patient does not exist.
    func insertEnrolment(_ enrolment: EnrolmentRecord) throws
    /// The enrolment with this id, or nil.
    func enrolment(id: String) throws -> EnrolmentRecord?
    /// A patient's enrolments still pending at `now`, oldest first.
    func pendingEnrolments(patient: String, at now: Date) throws -> [EnrolmentRecord]
    /// Cancels a pending enrolment; false when there is none pending with this id at `now`.
    func cancelEnrolment(id: String, at now: Date) throws -> Bool
    /// Atomically marks the enrolment pending at `now` whose code hashes to `codeHash` redeemed, and returns it;
    /// nil when there is none. Of two concurrent claims of one code, exactly one gets the record.
    func claimEnrolment(codeHash: [UInt8], at now: Date) throws -> EnrolmentRecord?
    /// Undoes a claim whose device token could not be made, so the code works again until it expires.
    func releaseEnrolment(id: String) throws
    /// Records the device token a claimed enrolment made, and the source's display name (replacing an earlier one).
    func completeEnrolment(id: String, device: DeviceSourceRecord) throws
    /// Each patient's enrolled sources with their display names, by source, from one snapshot (a patient without any
    /// maps to an empty list).
    func deviceSources(patients: [String]) throws -> [String: [DeviceSourceRecord]]
}

extension EnrolmentStore {
    /// A patient's enrolled sources with their display names, by source.
    public func deviceSources(patient: String) throws -> [DeviceSourceRecord] { try deviceSources(patients: [patient])[patient] ?? [] }
}
