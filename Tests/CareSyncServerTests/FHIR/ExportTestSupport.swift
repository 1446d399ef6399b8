import CareSyncTestSupport
import Foundation
import Testing
@testable import CareSyncServer

/// One finished bulk export as a consumer sees it: the manifest and every line of its files, in manifest order.
struct ExportDownload {
    /// The manifest (the status URL's 200 body).
    var manifest: JSONValue
    /// The Observations of every `output` file.
    var observations: [JSONValue]
    /// The transaction Bundles of every `deleted` file.
    var deletedBundles: [JSONValue]
    /// The status URL's path.
    var statusPath: String

    /// The anchor to pass as `_since` next time.
    var nextSince: String? { manifest["extension"]?[ExportWire.nextSinceExtension]?.stringValue }
    /// The ids the `deleted` Bundles delete, in order.
    var deletedIDs: [String] {
        deletedBundles.flatMap { $0["entry"]?.arrayValue ?? [] }.compactMap { entry in
            entry["request"]?["url"]?.stringValue.map { String($0.dropFirst("Observation/".count)) }
        }
    }
}

extension TestServer {
    /// The path (from `/fhir/R4/`) of an absolute URL the server handed out.
    static func path(of url: String) -> String {
        guard let range = url.range(of: FHIRBaseURL.path + "/") else { return url }
        return String(url[range.lowerBound...])
    }

    /// Sends a kick-off (`Prefer: respond-async` unless told otherwise).
    func kickOff(_ path: String, token: String?, prefer: String? = "respond-async") async throws -> TestReply {
        try await fhir(path, token: token, prefer: prefer)
    }

    /// Polls a status path until it answers something other than 202 (every poll of a running export is 202 with
    /// `X-Progress` and `Retry-After`); a status that never ends fails after many polls rather than hanging.
    func awaitStatus(_ statusPath: String, token: String) async throws -> TestReply {
        for _ in 0..<20_000 {
            let reply = try await fhir(statusPath, token: token)
            guard reply.status == 202 else { return reply }
            guard reply.header("X-Progress") != nil, reply.header("Retry-After") == "2" else {
                throw FHIRTestFailure(message: "a 202 status without X-Progress or Retry-After: \(reply.headers)")
            }
            try await Task.sleep(for: .milliseconds(2))
        }
        throw FHIRTestFailure(message: "the export at \(statusPath) never finished")
    }

    /// Runs an export to the end and downloads its files with `token`.
    func export(_ path: String, token: String) async throws -> ExportDownload {
        let kick = try await kickOff(path, token: token)
        guard kick.status == 202, let location = kick.header("Content-Location") else {
            throw FHIRTestFailure(message: "kick-off \(path) answered \(kick.status): \(kick.text)")
        }
        let statusPath = Self.path(of: location)
        let done = try await awaitStatus(statusPath, token: token)
        guard done.status == 200 else { throw FHIRTestFailure(message: "status answered \(done.status): \(done.text)") }
        var download = ExportDownload(manifest: done.json, observations: [], deletedBundles: [], statusPath: statusPath)
        download.observations = try await lines(of: done.json["output"], token: token)
        download.deletedBundles = try await lines(of: done.json["deleted"], token: token)
        return download
    }

    /// Every line of the files a manifest array lists, parsed.
    func lines(of files: JSONValue?, token: String) async throws -> [JSONValue] {
        var all: [JSONValue] = []
        for file in files?.arrayValue ?? [] {
            let url = try #require(file["url"]?.stringValue)
            let reply = try await fhir(Self.path(of: url), token: token)
            guard reply.status == 200, reply.header("Content-Type") == "application/fhir+ndjson" else {
                throw FHIRTestFailure(message: "file \(url) answered \(reply.status) \(reply.header("Content-Type") ?? ""): \(reply.text)")
            }
            let lines = reply.text.split(separator: "\n", omittingEmptySubsequences: false)
            guard lines.last == "" else { throw FHIRTestFailure(message: "file \(url) does not end with a newline") }
            let parsed = try lines.dropLast().map { try JSONValue.parse(Array($0.utf8)) }
            guard parsed.count == file["count"]?.integerValue.map(Int.init) else {
                throw FHIRTestFailure(message: "file \(url) has \(parsed.count) lines, the manifest says \(file["count"] ?? .null)")
            }
            all += parsed
        }
        return all
    }
}
