import Foundation
import CareSyncClient
import HealthExport
import Mirror

/// caresync-agent: the device agent's command line, on CareSyncClient only.
let usage = """
usage: caresync-agent import EXPORT.xml --patient ID [--url URL] [--batch-size N] [--quiet]
       caresync-agent mirror --patient ID --into REPLICA.sqlite [--watch] [--url URL] [--page-size N] [--quiet]
  import: pushes an Apple Health export's records as samples; resumable (state in EXPORT.xml.caresync-import).
  mirror: keeps a SQLite replica of the patient's feed (each page and its anchor in one transaction);
          --watch keeps it current with long polls.
  The server and token come from --url / CARESYNC_URL and CARESYNC_TOKEN (the token is never printed).
"""

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("caresync-agent: \(message)\n".utf8))
    exit(2)
}

func note(_ message: String) { FileHandle.standardError.write(Data(message.utf8)) }

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--help" || arguments.first == "-h" { print(usage); exit(0) }
guard let command = arguments.first, ["import", "mirror"].contains(command) else {
    fail(arguments.isEmpty ? "no command\n\(usage)" : "unknown command \(arguments[0])\n\(usage)")
}
arguments.removeFirst()
var file: String?
var patient: String?
var into: String?
var url = ProcessInfo.processInfo.environment["CARESYNC_URL"]
var batchSize = CareSyncClient.maxBatchSize
var pageSize: Int?
var watch = false
var quiet = false
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
    case "--page-size" where command == "mirror": pageSize = Int(value()) ?? 0
    case "--watch" where command == "mirror": watch = true
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
let showProgress = !quiet

do {
    switch command {
    case "import":
        guard let file else { fail("no export file\n\(usage)") }
        guard (1...CareSyncClient.maxBatchSize).contains(batchSize) else { fail("--batch-size must be 1–5000") }
        let importer = HealthImporter(client: client, patient: patient, batchSize: batchSize)
        let summary = try await importer.run(file: URL(fileURLWithPath: file), stateFile: URL(fileURLWithPath: file + ".caresync-import")) { summary in
            guard showProgress else { return }
            note("\r\u{1B}[Kimported \(summary.records) records: \(summary.inserted) new, \(summary.replaced) replaced, \(summary.ignored) already there")
        }
        if showProgress { note("\n") }
        print(summary)
    default:
        guard let into else { fail("--into is required") }
        if let pageSize, !(1...5_000).contains(pageSize) { fail("--page-size must be 1–5000") }
        let replica = try SQLiteReplica(path: into, patient: patient)
        var applied = 0
        try await replica.mirror(from: client, wait: watch ? 50 : nil, limit: pageSize) { event in
            switch event {
            case .page(let samples, let deleted, _):
                applied += samples.count + deleted.count
                if showProgress { note("\r\u{1B}[Kapplied \(applied) changes") }
            case .reset(let problem):
                if showProgress { note("\nthe anchor no longer works (\(problem.code)); reading everything again\n") }
            }
        }
        if showProgress { note("\n") }
        print("replica \(into): \(try replica.samples().count) samples, \(applied) changes applied")
    }
} catch let problem as Problem {
    fail("the server refused: \(problem)")
} catch {
    fail("\(error)")
}
