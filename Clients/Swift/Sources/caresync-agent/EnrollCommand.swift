import Foundation
import CareSyncClient

/// `caresync-agent enroll CODE|LINK --source NAME --display-name TEXT [--url URL]`: redeems an enrolment code and
/// prints the device token alone on stdout (so `CARESYNC_TOKEN=$(caresync-agent enroll …)` keeps it), what it is for on stderr.
func runEnroll(_ arguments: [String]) async -> Never {
    var arguments = arguments
    var code: String?, source: String?, displayName: String?
    var url = ProcessInfo.processInfo.environment["CARESYNC_URL"]
    while !arguments.isEmpty {
        let argument = arguments.removeFirst()
        func value() -> String {
            guard !arguments.isEmpty else { fail("\(argument) needs a value") }
            return arguments.removeFirst()
        }
        switch argument {
        case "--source": source = value()
        case "--display-name": displayName = value()
        case "--url": url = value()
        default:
            if argument.hasPrefix("-") || code != nil { fail("unexpected argument \(argument)\n\(usage)") }
            code = argument
        }
    }
    guard let code else { fail("enroll needs the code (or the enrolment link)\n\(usage)") }
    guard let source else { fail("--source is required (the source name this device writes with, e.g. org.example.watch)") }
    let name = displayName ?? source
    // A scanned link names its server; --url or CARESYNC_URL wins when given.
    guard let baseURL = url.flatMap(URL.init(string:)) ?? CareSyncClient.server(ofEnrolmentLink: code) else {
        fail("no server: pass --url, set CARESYNC_URL, or give the whole enrolment link")
    }
    do {
        let enrollment = try await CareSyncClient.enroll(baseURL: baseURL, code: code, source: source, displayName: name)
        note("enrolled \(enrollment.displayName) (\(enrollment.source)) for patient \(enrollment.patient); token \(enrollment.tokenId) on stdout")
        print(enrollment.token)
        exit(0)
    } catch let problem as Problem {
        fail("the server refused: \(problem)")
    } catch {
        fail("\(error)")
    }
}
