import Foundation
import CareSyncClient
import HealthExport

/// caresync-agent: the device agent's command line, on CareSyncClient only.
let usage = """
usage: caresync-agent import EXPORT.xml --patient ID [--url URL] [--batch-size N] [--quiet]
  Pushes an Apple Health export's records as samples; resumable (state in EXPORT.xml.caresync-import).
  The server and token come from --url / CARESYNC_URL and CARESYNC_TOKEN (the token is never printed).
"""

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("caresync-agent: \(message)\n".utf8))
    exit(2)
}

var arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.first == "import" else { fail(arguments.isEmpty ? "no command\n\(usage)" : "unknown command \(arguments[0])\n\(usage)") }
arguments.removeFirst()
var file: String?
var patient: String?
var url = ProcessInfo.processInfo.environment["CARESYNC_URL"]
var batchSize = CareSyncClient.maxBatchSize
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
    case "--batch-size": batchSize = Int(value()) ?? 0
    case "--quiet": quiet = true
    case "--help", "-h": print(usage); exit(0)
    default:
        if argument.hasPrefix("-") || file != nil { fail("unexpected argument \(argument)\n\(usage)") }
        file = argument
    }
}
guard let file else { fail("no export file\n\(usage)") }
guard let patient else { fail("--patient is required") }
guard let url, let baseURL = URL(string: url) else { fail("no server: pass --url or set CARESYNC_URL") }
guard let token = ProcessInfo.processInfo.environment["CARESYNC_TOKEN"], !token.isEmpty else { fail("set CARESYNC_TOKEN") }
guard (1...CareSyncClient.maxBatchSize).contains(batchSize) else { fail("--batch-size must be 1–5000") }

let exportURL = URL(fileURLWithPath: file)
let showProgress = !quiet
let importer = HealthImporter(client: CareSyncClient(baseURL: baseURL, token: token), patient: patient, batchSize: batchSize)
do {
    let summary = try await importer.run(file: exportURL, stateFile: URL(fileURLWithPath: file + ".caresync-import")) { summary in
        guard showProgress else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[Kimported \(summary.records) records: \(summary.inserted) new, \(summary.replaced) replaced, \(summary.ignored) already there".utf8))
    }
    if !quiet { FileHandle.standardError.write(Data("\n".utf8)) }
    print(summary)
} catch let problem as Problem {
    fail("the server refused: \(problem)")
} catch {
    fail("\(error)")
}
