import Foundation
import HTTPTypes

/// Every refusal the server can send, each produced once against the live server and decoded by the generated
/// client as a typed problem: through URLSession where it can send the request, else over a raw socket with the
/// captured answer replayed through the generated client.
@MainActor struct ProblemStory {
    let settings: StorySettings
    let tally: Tally
    var path: GetChanges.Input.Path { .init(patientId: settings.patient) }
    var samplesPath: PostSamples.Input.Path { .init(patientId: settings.patient) }
    var device: Client { Clients.make(settings.url, token: settings.deviceToken) }
    var therapist: Client { Clients.make(settings.url, token: settings.therapistToken) }

    func unauthorized() async throws {
        let output = try await Clients.make(settings.url, token: "cs_not_a_token").getChanges(path: path)
        let (_, fields) = try tally.expectProblem(output, status: 401, code: .unauthorized)
        try expect(fields["WWW-Authenticate"]?.hasPrefix("Bearer") == true, "WWW-Authenticate \(fields)")
    }

    func invalidEnrolmentCode() async throws {
        let body = Components.Schemas.EnrolmentRedemption(code: "0000-0000-0000", source: "org.example.story-watch", displayName: "Story watch")
        try tally.expectProblem(try await device.redeemEnrolment(body: .json(body)), status: 400, code: .invalidEnrolmentCode)
    }

    func forbidden() async throws {
        try tally.expectProblem(try await therapist.listTokens(), status: 403, code: .forbidden)
    }

    func notFound() async throws {
        try tally.expectProblem(try await device.getChanges(path: .init(patientId: "no-such-patient")), status: 404, code: .notFound)
    }

    func conflict() async throws {
        let uuid = UUID().uuidString
        var sample = Fixtures.steps(10, hour: 12, version: 1)
        sample.uuid = uuid; sample.syncIdentifier = nil; sample.syncVersion = nil
        _ = try await device.postSamples(path: samplesPath, body: .json(.init(samples: [sample]))).ok
        sample.value = 11
        try tally.expectProblem(try await device.postSamples(path: samplesPath, body: .json(.init(samples: [sample]))), status: 409, code: .conflict)
    }

    func validationFailed() async throws {
        var sample = Fixtures.steps(10, hour: 13, version: 1)
        sample.syncVersion = nil
        let (problem, _) = try tally.expectProblem(try await device.postSamples(path: samplesPath, body: .json(.init(samples: [sample]))),
                                                   status: 422, code: .validationFailed)
        try expect(problem.errors.contains { $0.index == 0 && $0.field == "syncVersion" }, "errors \(problem.errors)")
    }

    func payloadTooLarge() async throws {
        let samples = (0..<5001).map { _ in Fixtures.steps(1, hour: 14, version: 1) }.map { s -> Components.Schemas.SampleDraft in
            var s = s; s.syncIdentifier = nil; s.syncVersion = nil; return s
        }
        try tally.expectProblem(try await device.postSamples(path: samplesPath, body: .json(.init(samples: samples))), status: 413, code: .payloadTooLarge)
    }

    func invalidJSON() async throws {
        let broken = Clients.make(settings.url, token: settings.deviceToken, [RewriteMiddleware.body(Array("{\"samples\": [".utf8))])
        try tally.expectProblem(try await broken.postSamples(path: samplesPath, body: .json(.init(samples: []))), status: 400, code: .invalidJSON)
    }

    func duplicateKeysAreInvalidJSONAndStoreNothing() async throws {
        let before = try await device.getChanges(path: path, query: .init(anchor: nil, types: [.stepCount])).ok.body.json
        let body = #"{"samples": [{"type": "stepCount", "value": 5, "value": 19, "unit": "count", "start": "2020-06-18T15:00:00Z", "end": "2020-06-18T15:10:00Z"}]}"#
        let duplicate = Clients.make(settings.url, token: settings.deviceToken, [RewriteMiddleware.body(Array(body.utf8))])
        let (problem, _) = try tally.expectProblem(try await duplicate.postSamples(path: samplesPath, body: .json(.init(samples: []))),
                                                   status: 400, code: .invalidJSON)
        try expect(problem.detail.contains("value"), "the detail does not name the key: \(problem.detail)")
        let after = try await device.getChanges(path: path, query: .init(anchor: before.anchor)).ok.body.json
        try expect(after.samples.isEmpty && after.deletedObjects.isEmpty, "something was stored")
    }

    func corruptGzipIsInvalidJSON() async throws {
        let corrupt = Clients.make(settings.url, token: settings.deviceToken,
                                   [RewriteMiddleware.body([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 3, 1, 2, 3, 4], contentEncoding: "gzip")])
        try tally.expectProblem(try await corrupt.postSamples(path: samplesPath, body: .json(.init(samples: []))), status: 400, code: .invalidJSON)
    }

    func invalidAnchor() async throws {
        try tally.expectProblem(try await device.getChanges(path: path, query: .init(anchor: "not-an-anchor")), status: 400, code: .invalidAnchor)
    }

    func anchorExpired() async throws {
        guard let expired = settings.expiredAnchor else { throw StoryFailure(description: "CARESYNC_EXPIRED_ANCHOR is not set") }
        try tally.expectProblem(try await device.getChanges(path: path, query: .init(anchor: expired)), status: 410, code: .anchorExpired)
    }

    func uriTooLong() async throws {
        let long = String(repeating: "A", count: 9000)
        try tally.expectProblem(try await device.getChanges(path: path, query: .init(anchor: long)), status: 414, code: .uriTooLong)
    }

    func unsupportedMediaType() async throws {
        let text = Clients.make(settings.url, token: settings.deviceToken, [RewriteMiddleware.body(Array("{\"samples\": []}".utf8), contentType: "text/plain")])
        try tally.expectProblem(try await text.postSamples(path: samplesPath, body: .json(.init(samples: []))), status: 415, code: .unsupportedMediaType)
    }

    func headersTooLarge() async throws {
        let flood = Clients.make(settings.url, token: settings.deviceToken, [RewriteMiddleware.headerFlood(count: 120)])
        try tally.expectProblem(try await flood.getChanges(path: path), status: 431, code: .headersTooLarge)
    }

    func tooManyRequests() async throws {
        guard let token = settings.limitedToken else { throw StoryFailure(description: "CARESYNC_LIMITED_TOKEN is not set") }
        let limited = Clients.make(settings.url, token: token)
        for attempt in 1...2000 {
            let output = try await limited.getChanges(path: path, query: .init(limit: 1))
            if case .ok = output { continue }
            let (_, fields) = try tally.expectProblem(output, status: 429, code: .tooManyRequests)
            try expect((Int(fields["Retry-After"] ?? "") ?? 0) >= 1, "Retry-After \(fields)")
            print("  429 after \(attempt) requests, Retry-After \(fields["Retry-After"] ?? "?")")
            _ = try await device.getChanges(path: path, query: .init(limit: 1)).ok
            return
        }
        throw StoryFailure(description: "2000 requests of one token were all served")
    }

    func internalError() async throws {
        guard let faulty = settings.faultPatient else { throw StoryFailure(description: "CARESYNC_FAULT_PATIENT is not set") }
        let output = try await therapist.postSamples(path: .init(patientId: faulty), body: .json(.init(samples: [Fixtures.steps(1, hour: 8, version: 1)])))
        let (problem, _) = try tally.expectProblem(output, status: 500, code: ._internal)
        try expect(!problem.detail.lowercased().contains("sqlite"), "the 500 shows internals: \(problem.detail)")
    }

    func unavailable() async throws {
        guard let unaudited = settings.unauditedPatient else { throw StoryFailure(description: "CARESYNC_UNAUDITED_PATIENT is not set") }
        let (_, fields) = try tally.expectProblem(try await therapist.getChanges(path: .init(patientId: unaudited)), status: 503, code: .unavailable)
        try expect((Int(fields["Retry-After"] ?? "") ?? 0) >= 1, "Retry-After \(fields)")
    }
}
