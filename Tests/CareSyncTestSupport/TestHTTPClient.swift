import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The one test HTTP client: a blocking loopback socket that writes raw bytes and reads raw responses, so tests
/// exercise the real listener, parser and writer. Keep-alive by default; `send(port:…)` is one request per connection.
public final class TestHTTPClient: @unchecked Sendable {
    /// Why a read or connect failed.
    public enum Failure: Error, Sendable { case connect(Int32), closed, timeout, malformed(String) }

    /// The socket.
    public let fd: Int32
    private var buffer: [UInt8] = []
    private var isOpen = true

    /// How long a test's read waits for an answer before it fails instead of hanging: ThreadSanitizer's run starts
    /// every suite's server at once, and on a slow two-core machine its first requests waited over 90 s.
    public static let answerTimeout: Double = 240

    /// Connects to 127.0.0.1 (or ::1) on `port`; reads time out after `timeout` seconds.
    public init(port: Int, ipv6: Bool = false, timeout: Double = TestHTTPClient.answerTimeout) throws {
        fd = try Self.connect(port: port, ipv6: ipv6, timeout: timeout)
    }

    deinit { close() }

    /// A connected blocking socket whose reads time out after `timeout` seconds (the caller closes it).
    public static func connect(port: Int, ipv6: Bool = false, timeout: Double) throws -> Int32 {
        let fd = socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure.connect(errno) }
        var tv = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var status: Int32
        if ipv6 {
            var addr = sockaddr_in6()
            addr.sin6_family = sa_family_t(AF_INET6)
            addr.sin6_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET6, "::1", &addr.sin6_addr)
            status = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) } }
        } else {
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr)
            status = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        }
        if status != 0 {
            let code = errno
            Glibc.close(fd)
            throw Failure.connect(code)
        }
        return fd
    }

    /// Closes the connection: a client that goes away.
    public func close() {
        guard isOpen else { return }
        isOpen = false
        Glibc.close(fd)
    }

    /// Hands the socket to the caller, who closes it; this client no longer does.
    public func detach() -> Int32 {
        isOpen = false
        return fd
    }

    /// Sends all of `text`.
    public func send(_ text: String) { send(Array(text.utf8)) }

    /// Sends all of `bytes` (a failed send is left for the reads to notice: the server may answer early and close).
    public func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            offset += n
        }
    }

    /// Reads more bytes into the buffer; false at EOF.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = recv(fd, &chunk, chunk.count, 0)
        if n > 0 {
            buffer += chunk[0..<n]
            return true
        }
        if n == 0 { return false }
        if errno == EAGAIN || errno == EWOULDBLOCK { throw Failure.timeout }
        return false  // reset counts as closed
    }

    private func line() throws -> String {
        while true {
            if let i = buffer.firstIndex(of: 10), i > 0, buffer[i - 1] == 13 {
                let text = String(decoding: buffer[0..<(i - 1)], as: UTF8.self)
                buffer.removeFirst(i + 1)
                return text
            }
            guard try fill() else { throw Failure.closed }
        }
    }

    private func bytes(_ count: Int) throws -> [UInt8] {
        while buffer.count < count { guard try fill() else { throw Failure.closed } }
        let out = Array(buffer[0..<count])
        buffer.removeFirst(count)
        return out
    }

    /// Reads one response (interim 1xx responses included); `head` skips the body (HEAD requests).
    public func read(head: Bool = false) throws -> TestReply {
        let statusLine = try line()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw Failure.malformed(statusLine)
        }
        var headers: [(String, String)] = []
        while true {
            let field = try line()
            if field.isEmpty { break }
            guard let colon = field.firstIndex(of: ":") else { throw Failure.malformed(field) }
            headers.append((String(field[..<colon]), field[field.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        var reply = TestReply(status: status, headers: headers, body: [])
        if head || status < 200 || status == 204 || status == 304 { return reply }
        if let length = reply.header("Content-Length").flatMap(Int.init) {
            reply.body = try bytes(length)
        } else if reply.header("Transfer-Encoding")?.lowercased() == "chunked" {
            while true {
                let size = Int(try line().split(separator: ";")[0], radix: 16) ?? -1
                guard size >= 0 else { throw Failure.malformed("chunk size") }
                if size == 0 { _ = try line(); break }
                reply.body += try bytes(size)
                _ = try line()
            }
        } else {
            while try fill() {}
            reply.body = buffer
            buffer = []
        }
        return reply
    }

    /// Whether the server closed the connection: EOF (or reset) within `within` seconds, with no
    /// further response bytes. False when the connection stays open that long.
    public func isClosed(within: Double = 1) -> Bool {
        var tv = timeval(tv_sec: Int(within), tv_usec: Int((within - Double(Int(within))) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = recv(fd, &chunk, chunk.count, 0)
            if n > 0 {
                buffer += chunk[0..<n]
                continue
            }
            if n == 0 { return true }
            return !(errno == EAGAIN || errno == EWOULDBLOCK)
        }
    }

    /// Bytes received but not consumed by a read.
    public var leftover: [UInt8] { buffer }
}

extension TestHTTPClient {
    /// `read` on a thread of its own: a blocked read must not hold one of the few cooperative threads that the server
    /// under test (and every suite running beside this one) needs to answer it.
    public func response(head: Bool = false) async throws -> TestReply {
        try await onDedicatedThread { try self.read(head: head) }
    }

    /// `isClosed` on a thread of its own, as `response`.
    public func closed(within: Double = 1) async -> Bool {
        (try? await onDedicatedThread { self.isClosed(within: within) }) ?? false
    }

    /// One request on a connection of its own (`Connection: close`), read on a thread of its own: a long poll must
    /// not hold one of the few threads of Dispatch's pool, which the server under test shares. Reads wait up to
    /// `answerTimeout`.
    public static func send(port: Int, method: String, path: String, headers: [(String, String)] = [],
                            body: [UInt8] = []) async throws -> TestReply {
        try await onDedicatedThread { try sendBlocking(port: port, method: method, path: path, headers: headers, body: body) }
    }

    /// `send` on the calling thread.
    public static func sendBlocking(port: Int, method: String, path: String, headers: [(String, String)] = [],
                                    body: [UInt8] = []) throws -> TestReply {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (n, v) in headers { head += "\(n): \(v)\r\n" }
        if !body.isEmpty || method == "POST" || method == "PUT" { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        let client = try TestHTTPClient(port: port, timeout: answerTimeout)
        client.send(Array(head.utf8) + body)
        return try client.read(head: method == "HEAD")
    }

    /// Writes raw bytes on a connection of its own and reads one response.
    public static func exchange(port: Int, raw: [UInt8]) async throws -> TestReply {
        try await onDedicatedThread {
            let client = try TestHTTPClient(port: port, timeout: answerTimeout)
            client.send(raw)
            return try client.read()
        }
    }

}

/// A response as a test sees it.
public struct TestReply: Sendable {
    /// The status code.
    public var status: Int
    /// The header fields in order.
    public var headers: [(String, String)]
    /// The body, de-chunked.
    public var body: [UInt8]

    /// A reply from its parts.
    public init(status: Int, headers: [(String, String)], body: [UInt8]) {
        self.status = status; self.headers = headers; self.body = body
    }

    /// The first value of a header.
    public func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
    /// The body as text.
    public var text: String { String(decoding: body, as: UTF8.self) }
}
