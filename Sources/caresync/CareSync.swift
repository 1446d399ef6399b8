import ArgumentParser
import CareSyncServer

/// The `caresync` command line: it only wires the library targets together.
@main
struct CareSync: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "caresync", abstract: "CareSync sync server.",
        subcommands: [HealthcheckCommand.self])
}
