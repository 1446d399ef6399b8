import CareSyncCore
import Foundation

/// Enrolments, redemptions and device sources as JSON.
enum EnrolmentWire {
    /// A pending enrolment, without its code (which is not stored).
    static func encode(_ e: EnrolmentRecord) -> JSONValue {
        ["id": .string(e.id), "patient": .string(e.patient), "createdBy": .string(e.createdBy),
         "createdAt": .string(RFC3339.format(e.createdAt)), "expiresAt": .string(RFC3339.format(e.expiresAt))]
    }

    /// A new enrolment with its code, link and the link's QR code (SVG), shown once.
    static func created(_ e: EnrolmentRecord, code: String, url: String) -> JSONValue {
        guard case .object(var o) = encode(e) else { return .null }
        o["code"] = .string(code)
        o["url"] = .string(url)
        // The link always fits: an origin of up to ~190 bytes with the code is within version 10 at level M.
        o["qrSvg"] = (try? QRCode.encode(text: url, level: .medium)).map { .string(QRCodeSVG.render($0)) } ?? .null
        return .object(o)
    }

    /// A redeemed enrolment: the device token, shown once, with what it may do.
    static func redeemed(_ t: TokenRecord, secret: String, displayName: String) -> JSONValue {
        ["token": .string(secret), "tokenId": .string(t.id), "patient": .optional(t.patient), "source": .string(t.source),
         "displayName": .string(displayName), "role": .string(t.role.rawValue)]
    }

    /// An enrolled source with its display name and when the server last received samples from its token.
    static func encode(_ d: (record: DeviceSourceRecord, lastReceived: Date?)) -> JSONValue {
        ["source": .string(d.record.source), "displayName": .string(d.record.displayName), "tokenId": .string(d.record.tokenID),
         "enrolledAt": .string(RFC3339.format(d.record.enrolledAt)),
         "lastReceivedAt": .optional(d.lastReceived.map(RFC3339.format))]
    }
}
