import HTTPTypes

/// Serializes response heads: status line, the application's fields, then the fields the
/// server owns (`Date`, `Content-Length` / `Transfer-Encoding`, `Connection`).
enum ResponseEncoder {
    /// How the body is framed on the wire.
    enum Framing {
        /// `Content-Length: n` (the body may still be withheld, for HEAD).
        case length(Int)
        /// `Transfer-Encoding: chunked`.
        case chunked
        /// Neither: the body ends when the connection closes (HTTP/1.0 streams).
        case untilClose
        /// No body and no length field (1xx, 204, 304).
        case none
    }

    /// Whether the server writes the field itself, so the application's is left out (`Content-Length`,
    /// `Transfer-Encoding`, `Connection`, `Date`, `Keep-Alive`); told by length first, without hashing.
    static func isOwned(_ name: HTTPField.Name) -> Bool {
        let canonical = name.canonicalName
        switch canonical.utf8.count {
        case 4: return canonical == "date"
        case 10: return canonical == "connection" || canonical == "keep-alive"
        case 14: return canonical == "content-length"
        case 17: return canonical == "transfer-encoding"
        default: return false
        }
    }

    /// The head bytes for a response, with room for `bodyCapacity` more bytes (the body appended after it). A
    /// `requestID` is written as `X-Request-ID` after the application's fields unless they carry one.
    static func head(
        status: HTTPResponse.Status, headers: HTTPFields, requestID: String? = nil, framing: Framing, close: Bool,
        http10KeepAlive: Bool, bodyCapacity: Int = 0
    ) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(160 + headers.count * 40 + bodyCapacity)
        out += "HTTP/1.1 ".utf8
        out += String(status.code).utf8
        out.append(32)
        out += (status.reasonPhrase.isEmpty ? reason(for: status.code) : status.reasonPhrase).utf8
        out += "\r\n".utf8
        var namesRequest = false
        for field in headers {
            if field.name == RequestHead.requestIDField { namesRequest = true }
            guard !isOwned(field.name) else { continue }
            out += field.name.rawName.utf8
            out += ": ".utf8
            out += field.value.utf8
            out += "\r\n".utf8
        }
        if let requestID, !namesRequest {
            out += "X-Request-ID: ".utf8
            out += requestID.utf8
            out += "\r\n".utf8
        }
        out += "Date: ".utf8
        out += HTTPDate.now().utf8
        out += "\r\n".utf8
        switch framing {
        case .length(let n):
            out += "Content-Length: ".utf8
            out += String(n).utf8
            out += "\r\n".utf8
        case .chunked:
            out += "Transfer-Encoding: chunked\r\n".utf8
        case .untilClose, .none:
            break
        }
        if close {
            out += "Connection: close\r\n".utf8
        } else if http10KeepAlive {
            out += "Connection: keep-alive\r\n".utf8
        }
        out += "\r\n".utf8
        return out
    }

    /// A reason phrase for statuses made from a bare code (`HTTPResponse.Status(code: 409)`).
    static func reason(for code: Int) -> String {
        standardReasons[code] ?? "Status \(code)"
    }

    /// The reason phrases of every status swift-http-types names.
    private static let standardReasons: [Int: String] = {
        let all: [HTTPResponse.Status] = [
            .continue, .switchingProtocols, .earlyHints, .ok, .created, .accepted, .nonAuthoritativeInformation,
            .noContent, .resetContent, .partialContent, .multipleChoices, .movedPermanently, .found, .seeOther,
            .notModified, .temporaryRedirect, .permanentRedirect, .badRequest, .unauthorized, .forbidden, .notFound,
            .methodNotAllowed, .notAcceptable, .proxyAuthenticationRequired, .requestTimeout, .conflict, .gone,
            .lengthRequired, .preconditionFailed, .contentTooLarge, .uriTooLong, .unsupportedMediaType,
            .rangeNotSatisfiable, .expectationFailed, .misdirectedRequest, .unprocessableContent, .tooEarly,
            .upgradeRequired, .preconditionRequired, .tooManyRequests, .requestHeaderFieldsTooLarge,
            .unavailableForLegalReasons, .internalServerError, .notImplemented, .badGateway, .serviceUnavailable,
            .gatewayTimeout, .httpVersionNotSupported, .networkAuthenticationRequired,
        ]
        return Dictionary(all.map { ($0.code, $0.reasonPhrase) }, uniquingKeysWith: { first, _ in first })
    }()

    /// Whether a status forbids a body (1xx, 204, 304).
    static func forbidsBody(_ code: Int) -> Bool {
        code < 200 || code == 204 || code == 304
    }

    /// One chunk of a chunked body: size line, data, CRLF.
    static func chunk(_ bytes: [UInt8]) -> [UInt8] {
        var out = Array(String(bytes.count, radix: 16).utf8)
        out += "\r\n".utf8
        out += bytes
        out += "\r\n".utf8
        return out
    }

    /// The last chunk and an empty trailer section.
    static let lastChunk: [UInt8] = Array("0\r\n\r\n".utf8)

    /// The interim response sent before reading a body the client holds back.
    static let continueHead: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
}
