import ArgumentParser
import CareSyncBackends
import CareSyncCore
import CareSyncServer
import Foundation

/// `caresync person invite --role admin|therapist [--care-team X]… [--display-name N]`: prints a one-time link.
struct PersonCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "person", abstract: "Manage people who sign in with a browser.",
                                                    subcommands: [Invite.self])

    struct Invite: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Invite a therapist or an admin: prints a one-time link, shown this once.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "therapist or admin.") var role: String
        @Option(name: .customLong("care-team"), help: "A care team of the therapist (repeat for several).") var careTeams: [String] = []
        @Option(name: .customLong("display-name"), help: "The name shown in the web app.") var displayName: String = ""

        func run() throws {
            let configuration = try reportingErrors { try global.load() }
            let link = try reportingErrors { () throws -> String in
                guard let role = Role(rawValue: role), role != .device else {
                    throw ValidationError("--role must be therapist or admin")
                }
                let people = People(store: try StoreBackends.open(configuration.storeSettings).access, policy: configuration.sessions)
                let (invitation, secret) = try people.invite(role: role, careTeams: careTeams, displayName: displayName, now: Date())
                FileHandle.standardError.write(Data("invitation \(invitation.id) for a \(role.rawValue), expires \(invitation.expiresAt)\n".utf8))
                return InvitationLink.make(origin: configuration.linkOrigin(port: configuration.port), secret: secret)
            }
            print(link)
        }
    }
}
