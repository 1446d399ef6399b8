import Foundation
import HTTPTypes
import Logging
import Synchronization

/// An HTTP/1.1 server on non-blocking sockets and Dispatch sources (epoll): no thread per connection.
public final class HTTPServer: Sendable {
    /// The configuration the server was made with.
    public let configuration: Configuration
    let pipeline: RequestPipeline
    let logger: Logger

    /// Creates a server; nothing is bound until `start()`.
    public init(
        configuration: Configuration = Configuration(), responder: any HTTPResponder,
        headFilter: (any RequestHeadFilter)? = nil, logger: Logger
    ) {
        self.configuration = configuration
        self.pipeline = RequestPipeline(responder: responder, headFilter: headFilter, logger: logger)
        self.logger = logger
    }

    /// Binds, listens and starts accepting; returns the bound port (the chosen one for port 0).
    @discardableResult
    public func start() throws -> Int {
        throw HTTPServerError.notImplemented
    }

    /// Stops accepting, closes idle connections, lets requests in flight finish for up to
    /// `gracePeriod`, then closes everything and returns.
    public func shutdown(gracePeriod: Duration = .seconds(10)) async {}
}

/// Failures of the server itself (binding, listening).
public enum HTTPServerError: Error, Sendable {
    /// A system call failed with `errno`.
    case system(call: String, errno: Int32)
    /// The host is not a numeric IPv4 or IPv6 address nor "localhost".
    case invalidHost(String)
    /// `start()` was called twice, or after `shutdown`.
    case alreadyStarted
    /// Not built yet.
    case notImplemented
}
