/// Message framing from the header fields (RFC 9112 §6, §9): Host, Content-Length,
/// Transfer-Encoding, Connection, Expect.
extension RequestParser {
    /// Validates the head's framing fields and sets the body state; returns the finished head.
    mutating func decideFraming() throws(ParseError) -> ParsedHead {
        var hostCount = 0
        var contentLengths: [String] = []
        var codings: [String] = []
        var sawTransferEncoding = false
        var close = false
        var keepAliveToken = false
        var expectContinue = false
        for field in fields {
            switch Self.lowercased(field.name) {
            case "host":
                hostCount += 1
            case "content-length":
                contentLengths.append(field.value)
            case "transfer-encoding":
                sawTransferEncoding = true
                codings += Self.listElements(field.value)
            case "connection":
                for token in Self.listElements(field.value) {
                    if token == "close" { close = true }
                    if token == "keep-alive" { keepAliveToken = true }
                }
            case "expect" where minor == 1:
                guard Self.lowercased(field.value) == "100-continue" else { throw .expectationFailed }
                expectContinue = true
            default:
                break
            }
        }
        if minor == 1, hostCount != 1 { throw .badRequest(hostCount == 0 ? "missing Host" : "repeated Host") }
        if hostCount > 1 { throw .badRequest("repeated Host") }

        var contentLength: Int?
        var chunked = false
        if sawTransferEncoding {
            if minor == 0 { throw .badRequest("Transfer-Encoding in HTTP/1.0") }
            if !contentLengths.isEmpty { throw .badRequest("Content-Length with Transfer-Encoding") }
            guard !codings.isEmpty, !codings.contains("") else { throw .badRequest("empty transfer coding") }
            // Unknown codings (xchunked, identity, gzip …) are 501; chunked twice is 400. Both close.
            if let unknown = codings.first(where: { $0 != "chunked" }) {
                throw .notImplemented("transfer coding \(unknown)")
            }
            if codings.count > 1 { throw .badRequest("chunked applied more than once") }
            chunked = true
        } else if !contentLengths.isEmpty {
            guard contentLengths.count == 1 else { throw .badRequest("repeated Content-Length") }
            let length = try Self.parseContentLength(contentLengths[0])
            if length > limits.maxBodySize { throw .bodyTooLarge }
            contentLength = length
        } else {
            contentLength = 0
        }
        let keepAlive = !close && (minor == 1 || keepAliveToken)
        bodyReceived = 0
        state = chunked ? .chunkLine : .fixedBody(remaining: contentLength ?? 0)
        return ParsedHead(
            method: method, target: target, versionMajor: major, versionMinor: minor, fields: fields,
            contentLength: contentLength, chunked: chunked, keepAlive: keepAlive, expectContinue: expectContinue)
    }

    /// `1*DIGIT`, nothing else, without overflow.
    static func parseContentLength(_ text: String) throws(ParseError) -> Int {
        guard !text.isEmpty else { throw .badRequest("empty Content-Length") }
        var value = 0
        for byte in text.utf8 {
            guard let d = digit(byte) else { throw .badRequest("malformed Content-Length") }
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times.addingReportingOverflow(d)
            guard !o1, !o2 else { throw .badRequest("Content-Length overflow") }
            value = sum
        }
        return value
    }

    /// Elements of a comma-separated list, trimmed of spaces (not tabs) and lowercased (empty ones kept as "").
    static func listElements(_ value: String) -> [String] {
        value.split(separator: ",", omittingEmptySubsequences: false).map { part in
            lowercased(String(part.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()))
        }
    }

    /// ASCII lowercasing (field names and tokens are ASCII).
    static func lowercased(_ text: String) -> String {
        var bytes = Array(text.utf8)
        var changed = false
        for i in bytes.indices where bytes[i] >= 65 && bytes[i] <= 90 {
            bytes[i] += 32
            changed = true
        }
        return changed ? String(decoding: bytes, as: UTF8.self) : text
    }
}
