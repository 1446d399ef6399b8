import Foundation

/// Refusals a URLSession cannot provoke: the request goes over a raw socket, and the captured answer is replayed
/// through the generated client for the operation the request was aimed at.
@MainActor struct RawProblemStory {
    let settings: StorySettings
    let tally: Tally
    var host: String { settings.url.host ?? "127.0.0.1" }
    var port: Int { settings.url.port ?? 80 }
    var changes: String { "/v1/patients/\(settings.patient)/changes" }
    var samples: String { "/v1/patients/\(settings.patient)/samples" }

    /// Sends `head` (lines joined by CRLF, then an empty line unless `partial`) and `body` raw.
    func capture(_ head: [String], body: String = "", partial: Bool = false) throws -> RawResponse {
        let text = head.joined(separator: "\r\n") + (partial ? "\r\n" : "\r\n\r\n") + body
        return try RawHTTP.exchange(host: host, port: port, request: text)
    }

    /// The common header lines of a request to the story's server.
    var common: [String] { ["Host: \(host):\(port)", "Authorization: Bearer \(settings.deviceToken)", "Connection: close"] }

    /// Decodes `captured` as the answer to the change feed.
    func replayChanges(_ captured: RawResponse) async throws -> GetChanges.Output {
        try await Clients.replaying(captured, url: settings.url).getChanges(path: .init(patientId: settings.patient))
    }

    /// Decodes `captured` as the answer to a sample upload.
    func replaySamples(_ captured: RawResponse) async throws -> PostSamples.Output {
        try await Clients.replaying(captured, url: settings.url).postSamples(path: .init(patientId: settings.patient), body: .json(.init(samples: [])))
    }

    func badRequest() async throws {
        let captured = try capture(["POST \(samples) HTTP/1.1"] + common + ["Content-Type: application/json", "Content-Length: 2", "Content-Length: 3"], body: "{}")
        try tally.expectProblem(try await replaySamples(captured), status: 400, code: .badRequest)
    }

    func requestTimeout() async throws {
        let captured = try capture(["GET \(changes) HTTP/1.1", "Host: \(host):\(port)"], partial: true)
        try tally.expectProblem(try await replayChanges(captured), status: 408, code: .requestTimeout)
    }

    func expectationFailed() async throws {
        let captured = try capture(["POST \(samples) HTTP/1.1"] + common + ["Content-Type: application/json", "Content-Length: 15", "Expect: 200-ok"],
                                   body: "{\"samples\": []}")
        try tally.expectProblem(try await replaySamples(captured), status: 417, code: .expectationFailed)
    }

    func notImplemented() async throws {
        let captured = try capture(["POST \(samples) HTTP/1.1"] + common + ["Content-Type: application/json", "Transfer-Encoding: compress, chunked"],
                                   body: "0\r\n\r\n")
        try tally.expectProblem(try await replaySamples(captured), status: 501, code: .notImplemented)
    }

    func versionNotSupported() async throws {
        let captured = try capture(["GET \(changes) HTTP/1.2"] + common)
        try tally.expectProblem(try await replayChanges(captured), status: 505, code: .versionNotSupported)
    }

    /// 405 is answered only to a method the document does not list, so no operation declares it: the generated
    /// client hands it over as undocumented, and its body decodes as the generated Problem.
    func methodNotAllowed() async throws {
        let captured = try capture(["PUT \(samples) HTTP/1.1"] + common + ["Content-Length: 0"])
        guard case .undocumented(let status, let payload) = try await replaySamples(captured) else {
            throw StoryFailure(description: "a 405 came back as a documented answer of postSamples")
        }
        try expect(status == 405, "status \(status)")
        let data = try await Data(collecting: try expectBody(payload.body), upTo: 1 << 20)
        let problem = try JSONDecoder().decode(Components.Schemas.Problem.self, from: data)
        try expect(problem.code == .methodNotAllowed && problem.status == 405, "problem \(problem)")
        try expect(captured.header("Allow")?.contains("POST") == true, "Allow \(captured.header("Allow") ?? "missing")")
        tally.codes.insert(problem.code)
        tally.statuses.insert(405)
    }

    private func expectBody<T>(_ body: T?) throws -> T {
        guard let body else { throw StoryFailure(description: "no body") }
        return body
    }
}
