#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A minimal HTTP/1.1 client for `caresync healthcheck`: one GET over a plain socket, with a deadline.
/// The container image has no curl, so its HEALTHCHECK runs the binary itself.
public struct HealthProbe: Sendable {
    /// The address to connect to; wildcard listen addresses (`0.0.0.0`, `::`) mean loopback.
    public var host: String
    /// The TCP port.
    public var port: Int
    /// The path requested.
    public var path: String
    /// The longest the whole check may take.
    public var timeout: Duration

    /// A probe of `path` on `host:port`.
    public init(host: String, port: Int, path: String = "/readyz", timeout: Duration = .seconds(5)) {
        self.host = host
        self.port = port
        self.path = path
        self.timeout = timeout
    }

    /// What the check found.
    public enum Outcome: Sendable, Equatable, CustomStringConvertible {
        /// The server answered with this status code.
        case status(Int)
        /// No HTTP answer: the reason, such as `connection refused`.
        case failed(String)

        /// The process exit code for a healthcheck: 0 for 200, else 1.
        public var exitCode: Int32 {
            self == .status(200) ? 0 : 1
        }

        /// One line for the operator.
        public var description: String {
            switch self {
            case .status(let code): "answered \(code)"
            case .failed(let reason): "failed: \(reason)"
            }
        }
    }

    /// Connects, sends `GET path`, and reads the status line.
    public func run() -> Outcome {
        let target = (host == "0.0.0.0" || host.isEmpty) ? "127.0.0.1" : (host == "::" ? "::1" : host)
        guard (1...65_535).contains(port) else { return .failed("port \(port) is out of range") }
        let deadline = ContinuousClock.now.advanced(by: timeout)
        let socket: HealthSocket
        switch HealthSocket.connect(host: target, port: port, deadline: deadline) {
        case .success(let connected): socket = connected
        case .failure(let reason): return .failed(reason.message)
        }
        defer { socket.close() }
        let hostHeader = target.contains(":") ? "[\(target)]:\(port)" : "\(target):\(port)"
        let request = "GET \(path) HTTP/1.1\r\nHost: \(hostHeader)\r\nUser-Agent: caresync-healthcheck\r\n"
            + "Accept: */*\r\nConnection: close\r\n\r\n"
        if let failure = socket.send(Array(request.utf8), deadline: deadline) {
            return .failed(failure.message)
        }
        switch socket.receiveLine(limit: 1024, deadline: deadline) {
        case .failure(let reason): return .failed(reason.message)
        case .success(let line): return Self.parseStatusLine(line)
        }
    }

    /// Parses `HTTP/1.1 200 OK` into its status code.
    static func parseStatusLine(_ line: String) -> Outcome {
        let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].count == 3,
              let code = Int(parts[1]), (100...599).contains(code) else {
            return .failed("not an HTTP response")
        }
        return .status(code)
    }
}
