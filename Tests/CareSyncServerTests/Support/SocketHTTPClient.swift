import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A deliberately small HTTP/1.1 client over a blocking loopback socket, one request per connection,
/// so tests exercise the real listener, parser and writer.
struct SocketHTTPClient: Sendable {
    let port: Int

    struct Failure: Error, CustomStringConvertible { let description: String }

    /// Sends one request and reads the whole response (Content-Length or chunked).
    func send(method: String, path: String, headers: [(String, String)], body: [UInt8]) async throws -> TestReply {
        try await onOwnThread { try self.sendBlocking(method: method, path: path, headers: headers, body: body) }
    }

    /// Writes raw bytes and reads the response until the server closes (or 90 s pass).
    func exchange(raw: [UInt8]) async throws -> TestReply {
        try await onOwnThread { try self.exchangeBlocking(raw: raw) }
    }

    /// Runs blocking socket work on a thread of its own: a long poll must not hold one of the few
    /// threads of Dispatch's global pool, which the server under test shares.
    private func onOwnThread(_ body: @escaping @Sendable () throws -> TestReply) async throws -> TestReply {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try body() }) }
            thread.start()
        }
    }

    func sendBlocking(method: String, path: String, headers: [(String, String)], body: [UInt8]) throws -> TestReply {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (n, v) in headers { head += "\(n): \(v)\r\n" }
        if !body.isEmpty || method == "POST" || method == "PUT" { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        return try exchangeBlocking(raw: Array(head.utf8) + body)
    }

    /// Sends a request and returns the open socket without reading: close it to be a client that went away.
    func open(sending out: [UInt8]) throws -> Int32 {
        let fd = try connected()
        _ = out.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        return fd
    }

    /// A blocking socket connected to the server.
    func connected() throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket failed") }
        var timeout = timeval(tv_sec: 90, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { close(fd); throw Failure(description: "connect failed: \(errno)") }
        return fd
    }

    func exchangeBlocking(raw out: [UInt8]) throws -> TestReply {
        let fd = try connected()
        defer { close(fd) }
        var sent = 0
        while sent < out.count {
            let n = out[sent...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }  // the server may answer early (401/413) and close; read what it said
            sent += n
        }
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            data += buffer[0..<n]
        }
        return try TestReply(raw: data)
    }
}

/// A response as a test sees it.
struct TestReply: Sendable {
    var status: Int
    var headers: [(String, String)]
    var body: [UInt8]

    init(status: Int, headers: [(String, String)], body: [UInt8]) { self.status = status; self.headers = headers; self.body = body }

    init(raw: [UInt8]) throws {
        guard let end = raw.firstRange(of: Array("\r\n\r\n".utf8)) else {
            throw SocketHTTPClient.Failure(description: "no response head in \(raw.count) bytes")
        }
        let lines = String(decoding: raw[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        status = statusParts.count > 1 ? Int(statusParts[1]) ?? 0 : 0
        headers = lines.dropFirst().compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var rest = Array(raw[end.upperBound...])
        if headers.contains(where: { $0.0.lowercased() == "transfer-encoding" && $0.1.lowercased().contains("chunked") }) {
            var decoded: [UInt8] = []
            while let lineEnd = rest.firstRange(of: Array("\r\n".utf8)) {
                let size = Int(String(decoding: rest[..<lineEnd.lowerBound], as: UTF8.self).split(separator: ";")[0], radix: 16) ?? 0
                if size == 0 { break }
                decoded += rest[lineEnd.upperBound..<(lineEnd.upperBound + size)]
                rest = Array(rest[(lineEnd.upperBound + size + 2)...])
            }
            body = decoded
        } else if let length = headers.first(where: { $0.0.lowercased() == "content-length" }).flatMap({ Int($0.1) }) {
            body = Array(rest.prefix(length))
        } else {
            body = rest
        }
    }

    /// The first value of a header.
    func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
    /// The body as text.
    var text: String { String(decoding: body, as: UTF8.self) }
}
