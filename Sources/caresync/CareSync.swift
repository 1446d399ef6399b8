import ArgumentParser
import CareSyncServer

/// The `caresync` command line: it only wires the library targets together.
@main
struct CareSync: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "caresync", abstract: "CareSync: a HealthKit sync server for remote care teams.",
        subcommands: [Serve.self, Migrate.self, PatientCommand.self, CareTeamCommand.self, PersonCommand.self, TokenCommand.self, Backup.self,
                      HealthcheckCommand.self])
}
