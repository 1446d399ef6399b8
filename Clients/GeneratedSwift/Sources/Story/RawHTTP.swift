#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// An HTTP response as it came off a socket.
struct RawResponse: Sendable {
    /// The status code.
    var status: Int
    /// Header fields in order.
    var headers: [(String, String)]
    /// The body bytes (by Content-Length, else up to the close).
    var body: [UInt8]

    /// The first value of a header field, by case-insensitive name.
    func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
}

/// Failures of a raw exchange.
struct RawHTTPError: Error, CustomStringConvertible {
    let description: String
}

/// Sends bytes a URLSession would never send (bad framing, an unknown transfer coding, HTTP/1.2, half a head)
/// and reads the server's answer until it is complete or the connection closes.
enum RawHTTP {
    /// Connects to `host:port`, writes `request`, and reads one response within `timeout` seconds.
    static func exchange(host: String, port: Int, request: String, timeout: Int = 40) throws -> RawResponse {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let info = list else {
            throw RawHTTPError(description: "cannot resolve \(host)")
        }
        defer { freeaddrinfo(list) }
        let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
        guard fd >= 0 else { throw RawHTTPError(description: "socket() failed: errno \(errno)") }
        defer { close(fd) }
        var wait = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        guard connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 else {
            throw RawHTTPError(description: "cannot connect to \(host):\(port): errno \(errno)")
        }
        let bytes = Array(request.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw RawHTTPError(description: "send() failed: errno \(errno)") }
            sent += n
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            if let response = parse(received, complete: false) { return response }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 { received += buffer[0..<n]; continue }
            if n == 0, let response = parse(received, complete: true) { return response }
            throw RawHTTPError(description: n == 0 ? "the connection closed after \(received.count) bytes without a response"
                                                   : "recv() failed after \(received.count) bytes: errno \(errno)")
        }
    }

    /// The response in `bytes` once its head and body are all there (`complete`: the peer closed).
    static func parse(_ bytes: [UInt8], complete: Bool) -> RawResponse? {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = bytes.indices.dropLast(3).first(where: { Array(bytes[$0..<$0 + 4]) == separator }) else { return nil }
        let head = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = head[0].split(separator: " ", maxSplits: 2)
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { return nil }
        var headers: [(String, String)] = []
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        let body = Array(bytes[(end + 4)...])
        var response = RawResponse(status: status, headers: headers, body: body)
        if let length = response.header("Content-Length").flatMap(Int.init) {
            guard body.count >= length else { return nil }
            response.body = Array(body.prefix(length))
            return response
        }
        return complete ? response : nil
    }
}
