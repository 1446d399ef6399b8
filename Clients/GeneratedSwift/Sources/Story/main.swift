import Foundation

// Runs the WWDC20 story and every refusal against a live server through the generated client.
// Prints one line per step and `N passed, M failed`; exits 1 on any failure.
let settings: StorySettings
do {
    settings = try StorySettings.load()
} catch {
    print("caresync-story: \(error)")
    exit(2)
}
print("caresync-story (namingStrategy: \(namingStrategy)) against \(settings.url.absoluteString), patient \(settings.patient)")
let tally = Tally()

let story = SyncStory(settings: settings)
await tally.step("the served document and /healthz decode") { try await story.servedDocument() }
await tally.step("the type catalogue and whoami decode") { try await story.catalogueAndWhoami() }
await tally.step("report v1: three six-minute walk tests") { try await story.reportVersion1() }
await tally.step("feed from no anchor: the three tests") { try await story.feedFromNoAnchor() }
await tally.step("report v2 corrects June 18: one deleted object, one new sample") { try await story.reportVersion2CorrectsOneDay() }
await tally.step("resending v2 is ignored") { try await story.resendIsIgnored() }
await tally.step("the report reads back with its chart") { try await story.reportReadsBack() }
await tally.step("the device writes steps with sync identifiers and metadata of each kind") { try await story.deviceWritesStepsWithSyncIdentifiers() }
await tally.step("delete by sync identifier leaves a tombstone") { try await story.deleteBySyncIdentifier() }
await tally.step("statistics: daily step sums, by source") { try await story.statistics() }

let problems = ProblemStory(settings: settings, tally: tally)
await tally.step("401 unauthorized with WWW-Authenticate") { try await problems.unauthorized() }
await tally.step("403 forbidden") { try await problems.forbidden() }
await tally.step("404 notFound") { try await problems.notFound() }
await tally.step("400 invalidEnrolmentCode") { try await problems.invalidEnrolmentCode() }
await tally.step("409 conflict") { try await problems.conflict() }
await tally.step("413 payloadTooLarge") { try await problems.payloadTooLarge() }
await tally.step("422 validationFailed with errors") { try await problems.validationFailed() }
await tally.step("400 invalidJSON") { try await problems.invalidJSON() }
await tally.step("400 invalidJSON for a duplicate key, nothing stored") { try await problems.duplicateKeysAreInvalidJSONAndStoreNothing() }
await tally.step("400 invalidJSON for gzip that does not inflate") { try await problems.corruptGzipIsInvalidJSON() }
await tally.step("400 invalidAnchor") { try await problems.invalidAnchor() }
await tally.step("410 anchorExpired") { try await problems.anchorExpired() }
await tally.step("414 uriTooLong") { try await problems.uriTooLong() }
await tally.step("415 unsupportedMediaType") { try await problems.unsupportedMediaType() }
await tally.step("431 headersTooLarge") { try await problems.headersTooLarge() }
await tally.step("429 tooManyRequests with Retry-After; another token is still served") { try await problems.tooManyRequests() }
await tally.step("500 internal") { try await problems.internalError() }
await tally.step("503 unavailable with Retry-After") { try await problems.unavailable() }

let raw = RawProblemStory(settings: settings, tally: tally)
await tally.step("400 badRequest (raw socket, replayed)") { try await raw.badRequest() }
await tally.step("405 methodNotAllowed with Allow (raw socket, replayed)") { try await raw.methodNotAllowed() }
await tally.step("408 requestTimeout (raw socket, replayed)") { try await raw.requestTimeout() }
await tally.step("417 expectationFailed (raw socket, replayed)") { try await raw.expectationFailed() }
await tally.step("501 notImplemented (raw socket, replayed)") { try await raw.notImplemented() }
await tally.step("505 versionNotSupported (raw socket, replayed)") { try await raw.versionNotSupported() }

await tally.step("every problem code and status was decoded") {
    let codes = Set(Components.Schemas.ProblemCode.allCases).subtracting(tally.codes).map(\.rawValue).sorted()
    let statuses = Set(problemCases.keys).subtracting(tally.statuses).sorted()
    try expect(codes.isEmpty && statuses.isEmpty, "never decoded: codes \(codes), statuses \(statuses)")
}

print("\(tally.passed) passed, \(tally.failed) failed")
exit(tally.failed == 0 ? 0 : 1)
