import Synchronization
import ArgumentParser
import CareSyncServer
import Dispatch
import Foundation
import Logging

/// `caresync serve`: migrates if needed, then serves until SIGTERM or SIGINT.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Migrate if needed, then serve the API.")

    @OptionGroup var global: GlobalOptions
    @Option(help: "Address to listen on (default 127.0.0.1).") var host: String?
    @Option(help: "TCP port (default 8080); 0 picks a free one.") var port: Int?

    func run() async throws {
        var flags: [ConfigurationKey: String] = [:]
        if let host { flags[.host] = host }
        if let port { flags[.port] = String(port) }
        let configuration = try reportingErrors { try global.load(extraFlags: flags) }
        let metrics = ServerMetrics()
        Observability.bootstrap(configuration: configuration, metrics: metrics)
        let logger = Logger(label: "caresync")
        // Signals are caught before the line goes out, so a SIGTERM right after it still drains.
        let termination = TerminationSignal()
        let app = try reportingErrors { try buildServer(configuration, logger: logger, metrics: metrics) }
        let boundPort = try reportingErrors { try app.start() }
        let shownHost = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        let operations = app.startOperations(metrics: metrics)
        FileHandle.standardOutput.write(Data("listening on http://\(shownHost):\(boundPort)\n".utf8))
        await termination.wait()
        logger.info("server.stopping")
        await operations.stop()
        await app.shutdown()
        logger.info("server.stopped")
    }
}

/// SIGTERM and SIGINT, caught from creation on; `wait()` returns once either arrived.
final class TerminationSignal: Sendable {
    private let state = Mutex<(fired: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))
    nonisolated(unsafe) private var sources: [DispatchSourceSignal] = []

    init() {
        let queue = DispatchQueue(label: "caresync.signals")
        for sig in [SIGTERM, SIGINT] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
            source.setEventHandler { [weak self] in self?.fire() }
            source.resume()
            sources.append(source)
        }
    }

    private func fire() {
        let waiter = state.withLock { s -> CheckedContinuation<Void, Never>? in
            s.fired = true
            let w = s.waiter
            s.waiter = nil
            return w
        }
        waiter?.resume()
    }

    /// Suspends until a termination signal has arrived.
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let fired = state.withLock { s -> Bool in
                if s.fired { return true }
                s.waiter = continuation
                return false
            }
            if fired { continuation.resume() }
        }
    }
}
