import Foundation

/// A device enrolment: a one-time code a therapist or admin made for a patient, of which only a SHA-256 hash is kept.
public struct EnrolmentRecord: Hashable, Sendable {
    /// The public id (16 hex digits), used in URLs and listings; never the code.
    public var id: String
    /// The patient the redeemed device token will belong to.
    public var patient: String
    /// SHA-256 of the normalized code (`EnrolmentCode.normalized`).
    public var codeHash: [UInt8]
    /// The id of the token that created it.
    public var createdBy: String
    /// When it was created.
    public var createdAt: Date
    /// When the code stops working.
    public var expiresAt: Date
    /// When it was redeemed; nil while it is not.
    public var redeemedAt: Date?
    /// When it was cancelled; nil while it is not.
    public var cancelledAt: Date?
    /// The device token its redemption made.
    public var tokenID: String?

    /// An enrolment record.
    public init(id: String, patient: String, codeHash: [UInt8], createdBy: String, createdAt: Date, expiresAt: Date,
                redeemedAt: Date? = nil, cancelledAt: Date? = nil, tokenID: String? = nil) {
        self.id = id; self.patient = patient; self.codeHash = codeHash; self.createdBy = createdBy
        self.createdAt = createdAt; self.expiresAt = expiresAt
        self.redeemedAt = redeemedAt; self.cancelledAt = cancelledAt; self.tokenID = tokenID
    }

    /// Whether its code may still be redeemed at `now`: neither redeemed nor cancelled, and not expired.
    public func isPending(at now: Date) -> Bool { redeemedAt == nil && cancelledAt == nil && now < expiresAt }
}

/// A patient's data source as a person should see it: the source name its device writes with, and a display name.
public struct DeviceSourceRecord: Hashable, Sendable {
    /// The patient.
    public var patient: String
    /// The source name (`org.example.watch`).
    public var source: String
    /// What people see (`Apple Watch`).
    public var displayName: String
    /// The device token enrolled for it.
    public var tokenID: String
    /// When it was enrolled.
    public var enrolledAt: Date

    /// A device source record.
    public init(patient: String, source: String, displayName: String, tokenID: String, enrolledAt: Date) {
        self.patient = patient; self.source = source; self.displayName = displayName; self.tokenID = tokenID; self.enrolledAt = enrolledAt
    }
}
