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
        let app = try reportingErrors { try buildServer(configuration, logger: logger, metrics: metrics) }
        let boundPort = try reportingErrors { try app.start() }
        let shownHost = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        FileHandle.standardOutput.write(Data("listening on http://\(shownHost):\(boundPort)\n".utf8))
        await waitForTermination()
        logger.info("server.stopping")
        await app.shutdown()
        logger.info("server.stopped")
    }

    /// Suspends until SIGTERM or SIGINT arrives.
    private func waitForTermination() async {
        signal(SIGTERM, SIG_IGN)
        signal(SIGINT, SIG_IGN)
        let queue = DispatchQueue(label: "caresync.signals")
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumed = Locked(false)
            var sources: [DispatchSourceSignal] = []
            for sig in [SIGTERM, SIGINT] {
                let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
                source.setEventHandler {
                    let first = resumed.withLock { r in let was = r; r = true; return !was }
                    if first { continuation.resume() }
                }
                source.resume()
                sources.append(source)
            }
            SignalSources.keep(sources)
        }
    }
}

/// Keeps the signal sources alive for the life of the process.
enum SignalSources {
    nonisolated(unsafe) static var kept: [DispatchSourceSignal] = []
    static func keep(_ sources: [DispatchSourceSignal]) { kept = sources }
}
