import Testing

/// A request the server must reject, the exact status it must answer, and (always) a close.
struct SmugglingCase: Sendable, CustomTestStringConvertible {
    let name: String
    let raw: String
    let status: Int
    var testDescription: String { name }

    static let post = "POST /echo HTTP/1.1\r\nHost: a\r\n"

    static let all: [SmugglingCase] = [
        .init(name: "CL + TE", raw: post + "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", status: 400),
        .init(name: "CL.TE smuggle", raw: post + "Content-Length: 6\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /hello HTTP/1.1\r\nHost: a\r\n\r\n", status: 400),
        .init(name: "TE.CL smuggle", raw: post + "Transfer-Encoding: chunked\r\nContent-Length: 4\r\n\r\n5c\r\nGPOST / HTTP/1.1\r\n\r\n0\r\n\r\n", status: 400),
        .init(name: "TE xchunked", raw: post + "Transfer-Encoding: xchunked\r\n\r\n0\r\n\r\n", status: 501),
        .init(name: "TE chunked, chunked", raw: post + "Transfer-Encoding: chunked, chunked\r\n\r\n0\r\n\r\n", status: 400),
        .init(name: "TE identity", raw: post + "Transfer-Encoding: identity\r\n\r\n", status: 501),
        .init(name: "TE gzip, chunked", raw: post + "Transfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", status: 501),
        .init(name: "TE on HTTP/1.0", raw: "POST /echo HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", status: 400),
        .init(name: "two TE lines", raw: post + "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", status: 400),
        .init(name: "CL 5 twice", raw: post + "Content-Length: 5\r\nContent-Length: 5\r\n\r\nhello", status: 400),
        .init(name: "CL 5, 10", raw: post + "Content-Length: 5, 10\r\n\r\nhello", status: 400),
        .init(name: "CL +5", raw: post + "Content-Length: +5\r\n\r\nhello", status: 400),
        .init(name: "CL -1", raw: post + "Content-Length: -1\r\n\r\nhello", status: 400),
        .init(name: "CL 0x5", raw: post + "Content-Length: 0x5\r\n\r\nhello", status: 400),
        .init(name: "CL 25 digits", raw: post + "Content-Length: 1234567890123456789012345\r\n\r\nhello", status: 400),
        .init(name: "space before colon", raw: post + "Content-Length : 5\r\n\r\nhello", status: 400),
        .init(name: "obs-fold", raw: "GET /hello HTTP/1.1\r\nHost: a\r\nX-Folded: a\r\n b\r\n\r\n", status: 400),
        .init(name: "NUL in value", raw: "GET /hello HTTP/1.1\r\nHost: a\r\nX-Nul: a\u{0}b\r\n\r\n", status: 400),
        .init(name: "no Host", raw: "GET /hello HTTP/1.1\r\n\r\n", status: 400),
        .init(name: "two Hosts", raw: "GET /hello HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", status: 400),
        .init(name: "chunk size ffffffffffffffff1", raw: post + "Transfer-Encoding: chunked\r\n\r\nffffffffffffffff1\r\nhello\r\n0\r\n\r\n", status: 400),
        .init(name: "chunk size -1", raw: post + "Transfer-Encoding: chunked\r\n\r\n-1\r\nhello\r\n0\r\n\r\n", status: 400),
        .init(name: "chunk size +5", raw: post + "Transfer-Encoding: chunked\r\n\r\n+5\r\nhello\r\n0\r\n\r\n", status: 400),
        .init(name: "chunk size 16 f's over the limit", raw: post + "Transfer-Encoding: chunked\r\n\r\nffffffffffffffff\r\nhello\r\n0\r\n\r\n", status: 413),
        .init(name: "chunk data overrun", raw: post + "Transfer-Encoding: chunked\r\n\r\n5\r\nhelloXX0\r\n\r\n", status: 400),
        .init(name: "9 KB request line", raw: "GET /" + String(repeating: "a", count: 9 * 1024) + " HTTP/1.1\r\nHost: a\r\n\r\n", status: 414),
        .init(name: "200 headers", raw: "GET /hello HTTP/1.1\r\nHost: a\r\n" + (0..<200).map { "X-H\($0): v\r\n" }.joined() + "\r\n", status: 431),
        .init(name: "Content-Length 10^12", raw: post + "Content-Length: 1000000000000\r\n\r\n", status: 413),
        .init(name: "bare LF", raw: "GET /hello HTTP/1.1\nHost: a\n\n", status: 400),
        .init(name: "bare LF in fields", raw: "GET /hello HTTP/1.1\r\nHost: a\nX: y\r\n\r\n", status: 400),
        .init(name: "bare CR in value", raw: "GET /hello HTTP/1.1\r\nHost: a\r\nX: a\rb\r\n\r\n", status: 400),
        .init(name: "bare LF after chunk data", raw: post + "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\n0\r\n\r\n", status: 400),
        .init(name: "space in chunk size", raw: post + "Transfer-Encoding: chunked\r\n\r\n5 \r\nhello\r\n0\r\n\r\n", status: 400),
        .init(name: "HTTP/2.0", raw: "GET /hello HTTP/2.0\r\nHost: a\r\n\r\n", status: 505),
        .init(name: "lowercase version", raw: "GET /hello http/1.1\r\nHost: a\r\n\r\n", status: 400),
        .init(name: "double space", raw: "GET  /hello HTTP/1.1\r\nHost: a\r\n\r\n", status: 400),
        .init(name: "Expect other", raw: post + "Expect: 200-ok\r\nContent-Length: 1\r\n\r\nx", status: 417),
        .init(name: "control in target", raw: "GET /he\u{1}llo HTTP/1.1\r\nHost: a\r\n\r\n", status: 400),
        .init(name: "TE chunked then HTAB", raw: post + "Transfer-Encoding: chunked\t\r\n\r\n0\r\n\r\n", status: 501),
        .init(name: "unknown method", raw: "FOO /hello HTTP/1.1\r\nHost: a\r\n\r\n", status: 501),
        .init(name: "quote in absolute-form authority", raw: "GET http://a\"/hello HTTP/1.1\r\nHost: a\r\n\r\n", status: 400),
        .init(name: "userinfo in absolute-form", raw: "GET http://u@a/hello HTTP/1.1\r\nHost: a\r\n\r\n", status: 400),
        .init(name: "empty TE element", raw: post + "Transfer-Encoding: ,chunked\r\n\r\n0\r\n\r\n", status: 400),
    ]
}
