import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a redeemed enrolment code gave this device (`POST /v1/enrolments/redeem`): its device token, shown once.
public struct Enrollment: Codable, Sendable, Hashable {
    /// The bearer token; keep it in the device's keychain, it is not shown again.
    public var token: String
    /// The token's public id.
    public var tokenId: String
    /// The patient whose data the token writes and reads.
    public var patient: String
    /// The source its writes carry.
    public var source: String
    /// What people see for the source.
    public var displayName: String
}

extension CareSyncClient {
    /// Redeems an enrolment code (as shown, `7KQ2-M9XD-4HVB`, or the scanned link `https://…/enrol#7KQ2-M9XD-4HVB`)
    /// for a device token of the code's patient, writing under `source` and shown to people as `displayName`.
    ///
    /// Sent once, never retried: a code is single-use, and a lost answer cannot be asked for again (ask the therapist
    /// for a new code). A wrong, expired or used code is thrown as a ``Problem`` with code `invalidEnrolmentCode`.
    public static func enroll(baseURL: URL, code: String, source: String, displayName: String,
                              session: URLSession? = nil) async throws -> Enrollment {
        let client = CareSyncClient(baseURL: baseURL, token: "", session: session, retryPolicy: .never)
        let body = try JSONEncoder.careSync().encode(["code": enrolmentCode(in: code), "source": source, "displayName": displayName])
        return try await client.send(Call(method: "POST", path: ["v1", "enrolments", "redeem"], body: body), as: Enrollment.self)
    }

    /// Redeems an enrolment code on this client's server (its own token is not sent): see ``enroll(baseURL:code:source:displayName:session:)``.
    public func enroll(code: String, source: String, displayName: String) async throws -> Enrollment {
        try await Self.enroll(baseURL: baseURL, code: code, source: source, displayName: displayName, session: session)
    }

    /// A client of `baseURL` with the token of `enrollment`.
    public static func enrolled(_ enrollment: Enrollment, baseURL: URL, session: URLSession? = nil) -> CareSyncClient {
        CareSyncClient(baseURL: baseURL, token: enrollment.token, session: session)
    }

    /// The code in `text`: the fragment of an enrolment link, else the text itself.
    public static func enrolmentCode(in text: String) -> String {
        guard let hash = text.firstIndex(of: "#") else { return text.trimmingCharacters(in: .whitespacesAndNewlines) }
        return String(text[text.index(after: hash)...]).removingPercentEncoding ?? String(text[text.index(after: hash)...])
    }

    /// The server origin of an enrolment link (`https://caresync.example.org/enrol#…` → `https://caresync.example.org`), or nil.
    public static func server(ofEnrolmentLink text: String) -> URL? {
        guard text.contains("#"), let url = URL(string: text), let scheme = url.scheme, let host = url.host else { return nil }
        return URL(string: "\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? ""))
    }
}

/// A new enrolment a therapist or admin made for a patient (`POST /v1/patients/{id}/enrolments`): its one-time code,
/// shown once, as text, as a link, and as that link's QR code.
public struct EnrolmentOffer: Codable, Sendable, Hashable {
    /// The enrolment's id (to cancel it).
    public var id: String
    /// The patient.
    public var patient: String
    /// The one-time code (`7KQ2-M9XD-4HVB`).
    public var code: String
    /// The enrolment link carrying the code in its fragment.
    public var url: String
    /// The link as a QR code, an SVG document.
    public var qrSvg: String?
    /// When the code stops working.
    public var expiresAt: Date
}

extension CareSyncClient {
    /// Makes a one-time enrolment code for `patient` (a therapist token with the patient in reach, or an admin token).
    public func createEnrolment(patient: String) async throws -> EnrolmentOffer {
        try await send(Call(method: "POST", path: ["v1", "patients", patient, "enrolments"]), as: EnrolmentOffer.self)
    }
}
