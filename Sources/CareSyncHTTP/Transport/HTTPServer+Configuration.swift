import Foundation

extension HTTPServer {
    /// Everything the server can be tuned by; the defaults follow the CareSync API contract.
    public struct Configuration: Sendable {
        /// Address to bind: "127.0.0.1", "::1", "0.0.0.0", or "::" (dual stack, IPv4 and IPv6 on one port).
        public var host: String
        /// TCP port; 0 asks the kernel for a free one (read it from `start()`).
        public var port: Int
        /// Listen backlog handed to `listen(2)`.
        public var backlog: Int32
        /// Open connections allowed at once; one more is answered 503 and closed.
        public var maxConnections: Int
        /// Open connections allowed from one client address; one more is answered 429 and closed. 0: no limit.
        public var maxConnectionsPerAddress: Int
        /// Of `maxConnections`, the last ones, kept for the probe paths: a connection accepted into them may
        /// make one request to a path of `probePaths` (else 503) and is closed after it.
        public var reservedProbeConnections: Int
        /// Paths a connection in the probe reserve may ask for (`/healthz`, `/readyz`).
        public var probePaths: Set<String>
        /// Largest request body in bytes, also applied to the inflated size of gzip bodies (413 over it).
        public var maxBodySize: Int
        /// Longest request line in bytes, CRLF excluded (414 over it).
        public var maxRequestLineLength: Int
        /// Largest header section in bytes, request line excluded (431 over it).
        public var maxHeaderSize: Int
        /// Most header fields in one request (431 over it).
        public var maxHeaderCount: Int
        /// Time allowed from the first byte of a request to the end of its head (408, then close).
        public var headerReadTimeout: Duration
        /// Time allowed to receive a whole body once the head was accepted (408, then close).
        public var bodyReadTimeout: Duration
        /// Time an idle keep-alive connection is kept open waiting for the next request.
        public var idleTimeout: Duration
        /// Time allowed to hand a response to a client that does not read (then the connection is closed).
        public var writeTimeout: Duration
        /// Responses of at least this many bytes are gzipped when the client accepts gzip.
        public var gzipThreshold: Int
        /// Effort of gzip responses, 1 (fastest) … 9: ISA-L's level 1 for 1, its level 2 above (`Gzip.isalLevel`).
        public var gzipLevel: Int32
        /// Number of serial Dispatch queues that own the connections (0: one per core).
        public var eventLoopCount: Int
        /// Requests handled at once across all connections; one more is answered 503. 0 (the default): as many as
        /// `maxConnections`, so requests that park (long polls) can never take the slots of other requests —
        /// a connection holds at most one request in flight. A value below `maxConnections` lets parked
        /// requests starve the rest; callers that expose it (CareSync's `maxRequestsInFlight`) refuse that.
        public var maxConcurrentRequests: Int
        /// Runs handlers on the connection's event-loop thread instead of Swift's global pool: no thread
        /// hop per request (faster for quick handlers), but a handler that blocks its thread stalls the
        /// other connections of that loop. Off by default.
        public var handlersOnEventLoops: Bool
        /// Bytes of pipelined requests buffered beyond the one being served before reading pauses.
        public var maxPipelineBuffer: Int

        /// Creates a configuration; every argument has the contract's default.
        public init(
            host: String = "127.0.0.1",
            port: Int = 8080,
            backlog: Int32 = 1024,
            maxConnections: Int = 10_000,
            maxConnectionsPerAddress: Int = 0,
            reservedProbeConnections: Int = 0,
            probePaths: Set<String> = [],
            maxBodySize: Int = 8 * 1024 * 1024,
            maxRequestLineLength: Int = 8 * 1024,
            maxHeaderSize: Int = 16 * 1024,
            maxHeaderCount: Int = 100,
            headerReadTimeout: Duration = .seconds(10),
            bodyReadTimeout: Duration = .seconds(60),
            idleTimeout: Duration = .seconds(75),
            writeTimeout: Duration = .seconds(30),
            gzipThreshold: Int = 1024,
            gzipLevel: Int32 = 5,
            eventLoopCount: Int = 0,
            maxConcurrentRequests: Int = 0,
            maxPipelineBuffer: Int = 64 * 1024,
            handlersOnEventLoops: Bool = false
        ) {
            self.host = host
            self.port = port
            self.backlog = backlog
            self.maxConnections = maxConnections
            self.maxConnectionsPerAddress = maxConnectionsPerAddress
            self.reservedProbeConnections = reservedProbeConnections
            self.probePaths = probePaths
            self.maxBodySize = maxBodySize
            self.maxRequestLineLength = maxRequestLineLength
            self.maxHeaderSize = maxHeaderSize
            self.maxHeaderCount = maxHeaderCount
            self.headerReadTimeout = headerReadTimeout
            self.bodyReadTimeout = bodyReadTimeout
            self.idleTimeout = idleTimeout
            self.writeTimeout = writeTimeout
            self.gzipThreshold = gzipThreshold
            self.gzipLevel = gzipLevel
            self.eventLoopCount = eventLoopCount
            self.maxConcurrentRequests = maxConcurrentRequests
            self.maxPipelineBuffer = maxPipelineBuffer
            self.handlersOnEventLoops = handlersOnEventLoops
        }

        /// The in-flight limit in force: `maxConcurrentRequests`, or `maxConnections` when that is 0.
        var requestsInFlightLimit: Int { maxConcurrentRequests > 0 ? maxConcurrentRequests : maxConnections }

        /// Whether `head` asks for a probe path with GET or HEAD (what a connection in the probe reserve may do).
        func isProbe(_ head: RequestHead) -> Bool {
            guard head.method == .get || head.method == .head else { return false }
            let path = head.target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            return probePaths.contains(String(path))
        }

        /// The parser limits derived from this configuration.
        var parserLimits: ParserLimits {
            ParserLimits(
                maxRequestLineLength: maxRequestLineLength, maxHeaderSize: maxHeaderSize,
                maxHeaderCount: maxHeaderCount, maxBodySize: maxBodySize)
        }
    }
}
