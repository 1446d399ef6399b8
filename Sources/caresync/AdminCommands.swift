import CareSyncBackends
import CareSyncCore
import ArgumentParser
import CareSyncServer
import Foundation

/// `caresync migrate`: applies pending files from `migrations/`.
struct Migrate: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Apply pending migrations.")
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let configuration = try reportingErrors { try global.load() }
        let applied = try reportingErrors {
            try StoreBackends.chosen(by: configuration.storeSettings).migrate(configuration.storeSettings)
        }
        print(applied.isEmpty ? "up to date" : "applied \(applied.joined(separator: ", "))")
    }
}

/// `caresync patient create ID [--time-zone TZ]`.
struct PatientCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "patient", abstract: "Manage patients.", subcommands: [Create.self, Erase.self])

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a patient.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The patient id (A–Z, a–z, 0–9, '.', '_', '-').") var id: String
        @Option(name: .customLong("time-zone"), help: "IANA time zone (default UTC).") var timeZone: String?

        func run() throws {
            let admin = try adminTool(global)
            let patient = try reportingErrors { try admin.createPatient(id: id, timeZone: timeZone, now: Date()) }
            print("created patient \(patient.id) (\(patient.timeZone))")
        }
    }
}

/// `caresync care-team create NAME`; `caresync care-team add-patient NAME ID`; `caresync care-team remove-patient NAME ID`.
struct CareTeamCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "care-team", abstract: "Manage care teams.",
                                                    subcommands: [Create.self, AddPatient.self, RemovePatient.self])

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a care team.")
        @OptionGroup var global: GlobalOptions
        @Argument var name: String
        func run() throws {
            let admin = try adminTool(global)
            try reportingErrors { try admin.createCareTeam(name: name, now: Date()) }
            print("created care team \(name)")
        }
    }

    struct AddPatient: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add-patient", abstract: "Add a patient to a care team.")
        @OptionGroup var global: GlobalOptions
        @Argument var name: String
        @Argument var id: String
        func run() throws {
            let admin = try adminTool(global)
            try reportingErrors { try admin.addPatient(id, toCareTeam: name) }
            print("added patient \(id) to care team \(name)")
        }
    }

    struct RemovePatient: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove-patient",
            abstract: "Take a patient off a care team: the team's therapists no longer reach them.",
            discussion: "Servers over PostgreSQL hear it at once; a server on the same SQLite file notices within 5 seconds.")
        @OptionGroup var global: GlobalOptions
        @Argument var name: String
        @Argument var id: String
        func run() throws {
            let admin = try adminTool(global)
            try reportingErrors { try admin.removePatient(id, fromCareTeam: name, now: Date()) }
            print("removed patient \(id) from care team \(name)")
        }
    }
}

/// `caresync token create …`; `caresync token revoke TOKEN_ID`.
struct TokenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "token", abstract: "Manage access tokens.",
                                                    subcommands: [Create.self, Revoke.self])

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a token and print its secret, alone on stdout, this once.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "device, therapist or admin.") var role: String
        @Option(help: "The patient of a device token.") var patient: String?
        @Option(name: .customLong("care-team"), help: "A care team of a therapist token (repeatable).") var careTeams: [String] = []
        @Option(help: "The source stamped on this token's writes.") var source: String?
        @Option(name: .customLong("read-types"), help: "Comma list of readable types (default all).") var readTypes: String?
        @Option(name: .customLong("write-types"), help: "Comma list of writable types (default all).") var writeTypes: String?
        @Option(name: .customLong("expires-in"), help: "Days until the token expires (default never).") var expiresIn: Double?

        func run() throws {
            let admin = try adminTool(global)
            guard let role = Role(rawValue: role) else {
                throw reportingErrorsFailure("--role must be device, therapist or admin")
            }
            func list(_ s: String?) -> [String]? { s.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } } }
            let spec = TokenSpec(role: role, patient: patient, careTeams: careTeams, source: source,
                                 readTypes: list(readTypes), writeTypes: list(writeTypes), expiresInDays: expiresIn)
            let (record, secret) = try reportingErrors { try admin.createToken(spec, now: Date()) }
            FileHandle.standardError.write(Data("created \(record.role.rawValue) token \(record.id) (source \(record.source))\n".utf8))
            print(secret)
        }
    }

    struct Revoke: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a token by its id.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The token id (16 hex digits, after cs_).") var tokenID: String
        func run() throws {
            let admin = try adminTool(global)
            try reportingErrors { try admin.revokeToken(id: tokenID, now: Date()) }
            print("revoked token \(tokenID)")
        }
    }
}

/// `caresync backup --to FILE`: a consistent copy while the server runs.
struct Backup: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Copy the database consistently, even while the server runs.")
    @OptionGroup var global: GlobalOptions
    @Option(help: "Destination file.") var to: String

    func run() throws {
        let configuration = try reportingErrors { try global.load() }
        try reportingErrors { try StoreBackends.chosen(by: configuration.storeSettings).backup(configuration.storeSettings, to: to) }
        print("backed up \(configuration.databasePath) to \(to)")
    }
}

/// The operator actions over the configured database (migrated first).
func adminTool(_ global: GlobalOptions) throws -> AccessAdmin {
    let configuration = try reportingErrors { try global.load() }
    return try reportingErrors { AccessAdmin(store: try StoreBackends.open(configuration.storeSettings).access) }
}

func reportingErrorsFailure(_ message: String) -> ExitCode {
    FileHandle.standardError.write(Data("caresync: \(message)\n".utf8))
    return ExitCode(1)
}
