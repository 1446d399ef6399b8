import ArgumentParser
import CareSyncBackends
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
        // Log lines leave through a buffer (off the request path, at least every 250 ms, errors at once), written out
        // at shutdown and at exit; a SIGKILL loses at most the lines of the last 250 ms, never data.
        Observability.bootstrap(configuration: configuration, metrics: metrics, sink: .bufferedStandardError)
        defer { LogSink.flushStandardError() }
        let logger = Logger(label: "caresync")
        // The executable picks the backend the configuration names; the API only sees its stores.
        let app = try reportingErrors {
            try buildServer(configuration, backend: try StoreBackends.open(configuration.storeSettings), logger: logger, metrics: metrics)
        }
        let shownHost = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        try await reportingErrors {
            try await app.run { port in
                FileHandle.standardOutput.write(Data("listening on http://\(shownHost):\(port)\n".utf8))
                // On the terminal only, never in the log: whoever can read this line can become an admin.
                do {
                    if let link = try FirstRun.firstAdminLink(people: app.api.people, origin: configuration.linkOrigin(port: port), now: app.api.clock.now()) {
                        FileHandle.standardOutput.write(Data("no one can sign in yet; open this one-time link to become the first admin: \(link)\n".utf8))
                    }
                } catch {
                    logger.error("firstRun.invitation_failed", metadata: ["error": "\(type(of: error))"])
                }
            }
        }
    }
}
