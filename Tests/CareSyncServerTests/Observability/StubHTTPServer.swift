import CareSyncTestSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A one-shot loopback listener answering every connection with a canned response; for probe tests.
final class StubHTTPServer: Sendable {
    /// The port it listens on (chosen by the kernel).
    let port: Int
    /// The request bytes it received.
    private let received = Shared<[UInt8]>([])
    /// Whether the serving thread closed the listener; `stop()` reads it under the same lock as it shuts down.
    private let listenerClosed = Shared(false)
    private let listener: Int32

    /// The first request received so far, as text.
    var request: String {
        String(decoding: received.current, as: UTF8.self)
    }

    /// Listens on 127.0.0.1 and answers one connection with `response` (nil: accept and never answer).
    init(response: String?) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 4) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        listener = fd
        let box = ResponseBox(response: response)
        let serverThread = Thread { self.serve(box.response) }
        serverThread.start()
    }

    private struct ResponseBox: @unchecked Sendable { let response: String? }

    /// Runs on its own thread, which owns the listener and closes it: `stop()` only shuts it down,
    /// so the descriptor number cannot be reused under a pending `accept`.
    private func serve(_ response: String?) {
        let client = accept(listener, nil, nil)
        listenerClosed.update { closed in
            close(listener)
            closed = true
        }
        guard client >= 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        var total: [UInt8] = []
        while !total.containsHeaderEnd {
            let count = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress!, $0.count, 0) }
            if count <= 0 { break }
            total.append(contentsOf: buffer[0..<count])
        }
        received.set(total)
        if let response {
            _ = Array(response.utf8).withUnsafeBytes { send(client, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) }
            close(client)
        } else {
            Thread.sleep(forTimeInterval: 3)
            close(client)
        }
    }

    /// Stops listening (wakes a pending `accept`; the serving thread closes the descriptor).
    /// Only while the serving thread has not closed it: the number may since belong to another socket.
    func stop() {
        listenerClosed.update { closed in
            if !closed { shutdown(listener, Int32(SHUT_RDWR)) }
        }
    }

    /// A loopback port nothing listens on: bound, never listened, then closed.
    static func unusedPort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 ? getsockname(fd, pointer, &length) : -1
            }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

private extension [UInt8] {
    var containsHeaderEnd: Bool {
        count >= 4 && (0...(count - 4)).contains { self[$0] == 13 && self[$0 + 1] == 10 && self[$0 + 2] == 13 && self[$0 + 3] == 10 }
    }
}
