import CareSyncTestSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import CareSyncServer

/// A test reader of a change-feed event stream over a real loopback socket: sends the request, reads the
/// head, then decodes chunks and server-sent events one at a time, as a browser's EventSource would.
final class EventStreamClient: Sendable {
    /// One server-sent event, or a comment block (`comment` set, no fields).
    struct Event: Sendable {
        var id: String?
        var name: String?
        var data: String?
        var comment: String?
        /// The data parsed as JSON (`.null` when absent or not JSON).
        var json: JSONValue { data.flatMap { try? JSONValue.parse(Array($0.utf8)) } ?? .null }
        /// Samples and deleted objects in the event's page.
        var itemCount: Int { (json["samples"]?.arrayValue?.count ?? 0) + (json["deletedObjects"]?.arrayValue?.count ?? 0) }
    }

    private struct State {
        var raw: [UInt8] = []
        var body: [UInt8] = []
        var endedCleanly = false
        var eof = false
    }
    private let fd: Int32
    private let state = Shared(State())
    /// The response status.
    let status: Int
    /// The response head's fields.
    let headers: [(String, String)]
    /// The first bytes after the head when the answer is not a stream (a problem).
    var text: String { state.update { String(decoding: $0.raw, as: UTF8.self) } }
    /// Whether the server ended the stream with the last chunk (a clean end, not a cut connection).
    var endedCleanly: Bool { state.update { $0.endedCleanly } }

    /// Connects to `port`, sends `GET path` with `Accept: text/event-stream` and reads the head. Each read waits up to
    /// `timeoutSeconds` (by default as long as every test client: a starved first minute under ThreadSanitizer must not
    /// fail a read that would succeed; no test expects a stream read to time out).
    static func open(port: Int, path: String, token: String, headers: [(String, String)] = [],
                     timeoutSeconds: Int = Int(TestHTTPClient.answerTimeout)) async throws -> EventStreamClient {
        try await onDedicatedThread {
            let client = try TestHTTPClient(port: port, timeout: Double(timeoutSeconds))
            var head = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\nAuthorization: Bearer \(token)\r\n"
            for (n, v) in headers { head += "\(n): \(v)\r\n" }
            head += "\r\n"
            client.send(head)
            let reply = try client.read(head: true)
            return EventStreamClient(fd: client.detach(), status: reply.status, headers: reply.headers, rest: client.leftover)
        }
    }

    private init(fd: Int32, status: Int, headers: [(String, String)], rest: [UInt8]) {
        self.fd = fd; self.status = status; self.headers = headers
        state.update { $0.raw = rest }
    }

    /// The first value of a header.
    func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }

    /// The next event or comment; nil once the stream ended (cleanly or not).
    func next() async throws -> Event? {
        try await onDedicatedThread { self.nextBlocking() }
    }

    /// Events until `stop` holds for one (included), or the stream ends.
    func read(until stop: (Event) -> Bool) async throws -> [Event] {
        var events: [Event] = []
        while let event = try await next() {
            events.append(event)
            if stop(event) { break }
        }
        return events
    }

    /// Closes the socket: a client that goes away.
    func close() { _ = Glibc.close(fd) }

    private func nextBlocking() -> Event? {
        while true {
            if let event = state.update({ s in Self.takeEvent(&s.body) }) { return event }
            let done = state.update { s in
                Self.dechunk(&s)
                return s.endedCleanly || s.eof
            }
            if let event = state.update({ s in Self.takeEvent(&s.body) }) { return event }
            if done { return nil }
            if let more = Self.receive(fd), !more.isEmpty {
                state.update { $0.raw += more }
            } else {
                state.update { $0.eof = true }
            }
        }
    }

    /// Moves complete chunks from `raw` to `body`; the last chunk marks a clean end.
    private static func dechunk(_ s: inout State) {
        while !s.endedCleanly, let lineEnd = s.raw.firstRange(of: Array("\r\n".utf8)) {
            let size = Int(String(decoding: s.raw[..<lineEnd.lowerBound], as: UTF8.self).split(separator: ";").first ?? "", radix: 16) ?? 0
            guard s.raw.count >= lineEnd.upperBound + size + 2 else { return }
            if size == 0 { s.endedCleanly = true; s.raw = []; return }
            s.body += s.raw[lineEnd.upperBound..<(lineEnd.upperBound + size)]
            s.raw = Array(s.raw[(lineEnd.upperBound + size + 2)...])
        }
    }

    /// Takes one event block (up to a blank line) from `body`.
    private static func takeEvent(_ body: inout [UInt8]) -> Event? {
        guard let end = body.firstRange(of: Array("\n\n".utf8)) else { return nil }
        let block = String(decoding: body[..<end.lowerBound], as: UTF8.self)
        body = Array(body[end.upperBound...])
        var event = Event()
        var comments: [String] = []
        for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(":") { comments.append(line.dropFirst().trimmingCharacters(in: .whitespaces)); continue }
            let parts = line.split(separator: ":", maxSplits: 1)
            let field = String(parts[0])
            var value = parts.count > 1 ? String(parts[1]) : ""
            if value.hasPrefix(" ") { value.removeFirst() }
            switch field {
            case "id": event.id = value
            case "event": event.name = value
            case "data": event.data = event.data.map { $0 + "\n" + value } ?? value
            default: break
            }
        }
        if event.id == nil, event.name == nil, event.data == nil { event.comment = comments.joined(separator: "\n") }
        return event
    }

    private static func receive(_ fd: Int32) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        return n > 0 ? Array(buffer[0..<n]) : nil
    }

}
