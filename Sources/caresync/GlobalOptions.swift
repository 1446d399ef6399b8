import CareSyncHTTP
import ArgumentParser
import CareSyncServer
import Foundation

/// Options every subcommand takes: the database and the configuration file.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: "SQLite database file (default ./data/caresync.sqlite; environment CARESYNC_DATABASE).")
    var database: String?

    @Option(name: .long, help: "JSON configuration file (environment CARESYNC_CONFIG).")
    var config: String?

    /// The configuration: flags beat environment, which beats the file, which beats defaults.
    func load(extraFlags: [ConfigurationKey: String] = [:]) throws -> Configuration {
        var flags = extraFlags
        if let database { flags[.database] = database }
        do {
            return try Configuration.load(configFile: config, flags: flags)
        } catch {
            throw CLIError(error.description)
        }
    }
}

/// A failure reported on standard error as one line, with exit code 1.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ message: String) { description = message }
}

/// Runs `body`, turning API refusals and store failures into one clear line and exit code 1.
func reportingErrors<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch {
        throw exitCode(reporting: error)
    }
}

/// `reportingErrors` for async work (serving).
func reportingErrors<T>(_ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch {
        throw exitCode(reporting: error)
    }
}

/// Writes one line for `error` on stderr and returns exit code 1 (an `ExitCode` passes through).
private func exitCode(reporting error: any Error) -> ExitCode {
    switch error {
    case let e as HTTPError:
        let problems = e.errors.map { "\($0.field ?? ""): \($0.message)" }.joined(separator: "; ")
        FileHandle.standardError.write(Data("caresync: \(e.detail)\(problems.isEmpty ? "" : " (\(problems))")\n".utf8))
    case let e as CLIError:
        FileHandle.standardError.write(Data("caresync: \(e.description)\n".utf8))
    case let e as ExitCode:
        return e
    default:
        FileHandle.standardError.write(Data("caresync: \(error)\n".utf8))
    }
    return ExitCode(1)
}
