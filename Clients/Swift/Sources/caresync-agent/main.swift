import Foundation
import CareSyncClient
import HealthExport
import Mirror

/// caresync-agent: the device agent's command line, on CareSyncClient only.
let usage = """
usage: caresync-agent enroll CODE|LINK --source NAME [--display-name TEXT] [--url URL]
       caresync-agent import EXPORT.xml --patient ID [--add-only] [--url URL] [--batch-size N] [--quiet]
       caresync-agent mirror --patient ID --into REPLICA.sqlite [--watch] [--verify-every SECONDS] [--no-verify]
                             [--url URL] [--page-size N] [--quiet]
  enroll: redeems a one-time enrolment code (or the scanned link, which names the server) for this
          device's token, printed alone on stdout: CARESYNC_TOKEN=$(caresync-agent enroll …).
  import: makes the patient's samples from this agent equal to an Apple Health export (changed readings
          replaced, readings no longer in the export deleted, for the export's sources and types);
          --add-only only adds. Resumable (state in EXPORT.xml.caresync-import).
  mirror: keeps a SQLite replica of the patient's feed (each page, its anchor and the replica's checksum
          figures in one transaction), verified against the server's checksums after catching up; types
          that differ are downloaded again. --watch keeps it current with long polls and verifies again
          every --verify-every seconds (600).
  The server and token come from --url / CARESYNC_URL and CARESYNC_TOKEN (the token is never printed).
  A progress bar is drawn on stderr when it is a terminal (not with --quiet).
"""

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("caresync-agent: \(message)\n".utf8))
    exit(2)
}

func note(_ message: String) { FileHandle.standardError.write(Data("caresync-agent: \(message)\n".utf8)) }

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--help" || arguments.first == "-h" { print(usage); exit(0) }
guard let command = arguments.first, ["enroll", "import", "mirror"].contains(command) else {
    fail(arguments.isEmpty ? "no command\n\(usage)" : "unknown command \(arguments[0])\n\(usage)")
}
arguments.removeFirst()
if command == "enroll" { await runEnroll(arguments) }
var file: String?
var patient: String?
var into: String?
var url = ProcessInfo.processInfo.environment["CARESYNC_URL"]
var batchSize = CareSyncClient.maxBatchSize
var pageSize: Int?
var watch = false
var verify = true
var verifyEvery = 600
var quiet = false
var addOnly = false
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    func value() -> String {
        guard !arguments.isEmpty else { fail("\(argument) needs a value") }
        return arguments.removeFirst()
    }
    switch argument {
    case "--patient": patient = value()
    case "--url": url = value()
    case "--into" where command == "mirror": into = value()
    case "--batch-size" where command == "import": batchSize = Int(value()) ?? 0
    case "--add-only" where command == "import": addOnly = true
    case "--page-size" where command == "mirror": pageSize = Int(value()) ?? 0
    case "--watch" where command == "mirror": watch = true
    case "--no-verify" where command == "mirror": verify = false
    case "--verify-every" where command == "mirror": verifyEvery = Int(value()) ?? 0
    case "--quiet": quiet = true
    default:
        if argument.hasPrefix("-") || file != nil || command != "import" { fail("unexpected argument \(argument)\n\(usage)") }
        file = argument
    }
}
guard let patient else { fail("--patient is required") }
guard let url, let baseURL = URL(string: url) else { fail("no server: pass --url or set CARESYNC_URL") }
guard let token = ProcessInfo.processInfo.environment["CARESYNC_TOKEN"], !token.isEmpty else { fail("set CARESYNC_TOKEN") }
let client = CareSyncClient(baseURL: baseURL, token: token)
let progress = ProgressLine(quiet: quiet)

do {
    switch command {
    case "import":
        guard let file else { fail("no export file\n\(usage)") }
        guard (1...CareSyncClient.maxBatchSize).contains(batchSize) else { fail("--batch-size must be 1–5000") }
        let importer = HealthImporter(client: client, patient: patient, batchSize: batchSize, addOnly: addOnly)
        let summary = try await importer.run(file: URL(fileURLWithPath: file), stateFile: URL(fileURLWithPath: file + ".caresync-import")) { summary in
            let fraction = summary.fileSize > 0 ? Double(summary.bytesRead) / Double(summary.fileSize) : 0
            progress.draw("\(ProgressLine.bar(fraction)) \(summary.records) records: \(summary.inserted) new, "
                          + "\(summary.replaced) replaced, \(summary.ignored) already there, \(summary.deleted) deleted")
        }
        progress.finish()
        print(summary)
    default:
        guard let into else { fail("--into is required") }
        if let pageSize, !(1...5_000).contains(pageSize) { fail("--page-size must be 1–5000") }
        guard verifyEvery > 0 else { fail("--verify-every must be a positive number of seconds") }
        let replica = try SQLiteReplica(path: into, patient: patient)
        var applied = 0
        var repaired: [String] = []
        var verified: String?
        try await replica.mirror(from: client, limit: pageSize, verify: verify,
                                 watch: watch ? MirrorWatch(verifyEvery: .seconds(verifyEvery)) : nil) { event in
            switch event {
            case .applied(.page(let samples, let deleted, _)):
                applied += samples.count + deleted.count
                progress.draw("applied \(applied) changes")
            case .applied(.reset(let problem)):
                progress.finish()
                if !quiet { note("the anchor no longer works (\(problem.code)); reading everything again") }
            case .verified(_, let differing):
                verified = differing.isEmpty ? "verified against the server's checksums" : "differs in \(differing.joined(separator: ", "))"
                if !differing.isEmpty && !quiet {
                    progress.finish()
                    note("the replica differs from the server in \(differing.joined(separator: ", ")); downloading them again")
                }
            case .repaired(let types, let samples):
                repaired += types
                if !quiet { note("downloaded \(types.joined(separator: ", ")) again: \(samples) samples") }
            }
        }
        progress.finish()
        let repairs = repaired.isEmpty ? "" : ", repaired \(Set(repaired).sorted().joined(separator: ", "))"
        print("replica \(into): \(try replica.count()) samples, \(applied) changes applied\(repairs)"
              + (verified.map { ", \($0)" } ?? ""))
    }
} catch let problem as Problem {
    progress.finish()
    fail("the server refused: \(problem)")
} catch {
    progress.finish()
    fail("\(error)")
}
