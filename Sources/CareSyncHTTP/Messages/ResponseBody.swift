/// The body of a response: a byte array sent with `Content-Length`, or a stream sent chunked.
public enum ResponseBody: Sendable {
    /// A complete body; the server sets `Content-Length` (and may gzip it).
    case bytes([UInt8])
    /// A body produced piece by piece; the server sends it with chunked transfer coding (HTTP/1.1)
    /// or closes the connection after it (HTTP/1.0). Empty pieces are skipped.
    case stream(AsyncThrowingStream<[UInt8], any Error>)

    /// No body.
    public static var empty: ResponseBody { .bytes([]) }

    /// The bytes of a complete body, nil for a stream.
    public var bytes: [UInt8]? {
        if case .bytes(let bytes) = self { return bytes }
        return nil
    }
}
