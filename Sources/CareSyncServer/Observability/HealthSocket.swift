#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A non-blocking client TCP socket whose every step waits in `poll` until a deadline.
/// Used only by ``HealthProbe``, which owns it for one request and closes it (Linux only).
struct HealthSocket {
    /// The file descriptor.
    let descriptor: Int32

    /// A socket failure in a few words (`connection refused`, `timed out`).
    struct Failure: Error, Sendable {
        let message: String
        static func errno(_ what: String) -> Failure {
            Failure(message: "\(what): \(String(cString: strerror(Glibc.errno)))".lowercased())
        }
    }

    /// Resolves `host` and connects to the first address that accepts before the deadline.
    static func connect(host: String, port: Int, deadline: ContinuousClock.Instant) -> Result<HealthSocket, Failure> {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            return .failure(Failure(message: "cannot resolve \(host): \(String(cString: gai_strerror(status)))"))
        }
        defer { freeaddrinfo(list) }
        var lastFailure = Failure(message: "no address for \(host)")
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry {
            entry = info.pointee.ai_next
            let fd = socket(info.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { lastFailure = .errno("socket"); continue }
            let candidate = HealthSocket(descriptor: fd)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            if Glibc.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 {
                return .success(candidate)
            }
            guard Glibc.errno == EINPROGRESS else {
                lastFailure = .errno("connect"); candidate.close(); continue
            }
            if let failure = candidate.wait(for: Int16(POLLOUT), deadline: deadline) {
                lastFailure = failure; candidate.close(); continue
            }
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
            if error == 0 { return .success(candidate) }
            lastFailure = Failure(message: "connect: \(String(cString: strerror(error)))".lowercased())
            candidate.close()
        }
        return .failure(lastFailure)
    }

    /// Sends every byte, or says why it could not.
    func send(_ bytes: [UInt8], deadline: ContinuousClock.Instant) -> Failure? {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { buffer in
                Glibc.send(descriptor, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent > 0 { offset += sent; continue }
            guard sent < 0, Glibc.errno == EAGAIN || Glibc.errno == EINTR else { return .errno("send") }
            if let failure = wait(for: Int16(POLLOUT), deadline: deadline) { return failure }
        }
        return nil
    }

    /// Reads up to the first CRLF (the status line), at most `limit` bytes.
    func receiveLine(limit: Int, deadline: ContinuousClock.Instant) -> Result<String, Failure> {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 512)
        while received.count < limit {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress!, $0.count, 0) }
            if count > 0 {
                received.append(contentsOf: chunk[0..<count])
                if let end = received.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = received[..<end].last == UInt8(ascii: "\r") ? received[..<(end - 1)] : received[..<end]
                    return .success(String(decoding: line, as: UTF8.self))
                }
                continue
            }
            if count == 0 { return .failure(Failure(message: "connection closed before a response")) }
            guard Glibc.errno == EAGAIN || Glibc.errno == EINTR else { return .failure(.errno("recv")) }
            if let failure = wait(for: Int16(POLLIN), deadline: deadline) { return .failure(failure) }
        }
        return .failure(Failure(message: "status line too long"))
    }

    /// Waits until the socket is ready for `events` or the deadline passes.
    private func wait(for events: Int16, deadline: ContinuousClock.Instant) -> Failure? {
        while true {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { return Failure(message: "timed out") }
            let (seconds, attoseconds) = remaining.components
            let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
            var poller = pollfd(fd: descriptor, events: events, revents: 0)
            let ready = poll(&poller, 1, milliseconds)
            if ready > 0 { return nil }
            if ready < 0 && Glibc.errno != EINTR { return .errno("poll") }
        }
    }

    /// Closes the descriptor.
    func close() {
        _ = Glibc.close(descriptor)
    }
}
