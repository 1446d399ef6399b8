import ArgumentParser
import CareSyncServer
import Foundation

/// `caresync healthcheck`: GET /readyz on the running server; exit 0 on 200, else 1.
/// The container's HEALTHCHECK runs it, since the image has no curl.
struct HealthcheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "healthcheck",
        abstract: "Check that a running server is ready (GET /readyz): exit 0 on 200, else 1.")

    @Option(help: "Server address; 0.0.0.0 means loopback. Default: the configured host.")
    var host: String?

    @Option(help: "Server port. Default: the configured port.")
    var port: Int?

    @Option(help: "Path to request.")
    var path: String = "/readyz"

    @Option(help: "Seconds allowed for the whole check.")
    var timeout: Double = 5

    @Option(help: "Configuration file (JSON), as for serve.")
    var config: String?

    @Option(help: "Database path (accepted like every subcommand; unused here).")
    var database: String?

    mutating func run() throws {
        var flags: [ConfigurationKey: String] = [:]
        if let host { flags[.host] = host }
        if let port { flags[.port] = String(port) }
        if let database { flags[.database] = database }
        let configuration = try Configuration.load(configFile: config, flags: flags)
        let probe = HealthProbe(
            host: configuration.host, port: configuration.port, path: path,
            timeout: .milliseconds(Int64(max(0.001, timeout) * 1000)))
        let outcome = probe.run()
        if outcome.exitCode == 0 {
            print("ready: \(path) \(outcome)")
        } else {
            FileHandle.standardError.write(Data("healthcheck: \(path) on port \(probe.port) \(outcome)\n".utf8))
        }
        throw ExitCode(outcome.exitCode)
    }
}
