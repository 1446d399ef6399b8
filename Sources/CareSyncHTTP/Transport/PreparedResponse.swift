import HTTPTypes

/// A response ready for the wire: head (and body) bytes, or a head and a stream.
struct PreparedResponse: Sendable {
    /// Head and, for complete bodies, the body.
    var bytes: [UInt8]
    /// The body stream, for streamed responses (nil for HEAD).
    var stream: AsyncThrowingStream<[UInt8], any Error>?
    /// Whether stream pieces are sent as chunks (else raw, ended by close).
    var chunked: Bool
    /// Whether the connection closes after this response.
    var close: Bool
    /// The status code, for logs.
    var status: Int
}

/// Applies the server's response rules: gzip, framing, HEAD, `Connection`.
enum ResponsePreparer {
    /// Prepares `response` to `head`; runs off the I/O queue (gzip can take a while).
    @inline(never)
    static func prepare(_ response: Response, for head: RequestHead, core: ServerCore, close: Bool) -> PreparedResponse {
        let configuration = core.configuration
        let isHead = head.method == .head
        let http10 = head.version.minor == 0
        let noBody = ResponseEncoder.forbidsBody(response.status.code)
        var headers = response.headers
        // Every answer names its request, so a client can quote the id the server logged it under: the encoder adds
        // `X-Request-ID` unless the response carries one.
        switch response.body {
        case .bytes(var body):
            if noBody { body = [] }
            if !noBody, body.count >= configuration.gzipThreshold, headers[.contentEncoding] == nil,
               let accept = head.headers[.acceptEncoding], Gzip.accepts(accept),
               let packed = Gzip.compress(body, level: configuration.gzipLevel) {
                body = packed
                headers[.contentEncoding] = "gzip"
                headers.append(HTTPField(name: .vary, value: "Accept-Encoding"))
            }
            var bytes = ResponseEncoder.head(
                status: response.status, headers: headers, requestID: head.id, framing: noBody ? .none : .length(body.count),
                close: close, http10KeepAlive: http10 && !close, bodyCapacity: isHead ? 0 : body.count)
            if !isHead { bytes += body }
            return PreparedResponse(bytes: bytes, stream: nil, chunked: false, close: close, status: response.status.code)
        case .stream(let stream):
            let closeAfter = close || http10
            let framing: ResponseEncoder.Framing = noBody ? .none : (http10 ? .untilClose : .chunked)
            let bytes = ResponseEncoder.head(
                status: response.status, headers: headers, requestID: head.id, framing: framing, close: closeAfter,
                http10KeepAlive: false)
            return PreparedResponse(
                bytes: bytes, stream: (isHead || noBody) ? nil : stream, chunked: !http10, close: closeAfter,
                status: response.status.code)
        }
    }
}
