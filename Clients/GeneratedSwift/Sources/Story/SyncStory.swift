import Foundation

/// The WWDC20 story: a therapist posts weekly reports, a device follows the anchored feed, writes and deletes
/// its own samples, and asks for statistics. Each method is one step; state passes from step to step.
@MainActor final class SyncStory {
    let settings: StorySettings
    let therapist: Client
    let device: Client
    var patient: GetChanges.Input.Path { .init(patientId: settings.patient) }
    /// The feed anchor the next step reads from.
    var anchor = ""
    /// The June 18 test of version 1.
    var june18: Components.Schemas.Sample?
    /// The therapist token's source, as the server stamped it.
    var therapistSource = ""

    init(settings: StorySettings) {
        self.settings = settings
        therapist = Clients.make(settings.url, token: settings.therapistToken)
        device = Clients.make(settings.url, token: settings.deviceToken)
    }

    func servedDocument() async throws {
        let document = try await device.getOpenAPIDocument().ok.body.json
        try expect(document.openapi == "3.1.0", "openapi \(document.openapi)")
        try expect(try await device.getHealth().ok.body.json.status == .ok, "healthz is not ok")
    }

    func catalogueAndWhoami() async throws {
        let catalogue = try await device.listTypes().ok.body.json.types
        try expect(catalogue.map(\.identifier) == Components.Schemas.SampleType.allCases, "\(catalogue.count) types in the catalogue")
        let steps = catalogue.first { $0.identifier == .stepCount }, sleep = catalogue.first { $0.identifier == .sleepAnalysis }
        try expect(steps?.kind == .quantity && steps?.aggregation == .cumulative && steps?.canonicalUnit == "count"
                   && steps?.statisticsOptions.contains(.cumulativeSum) == true, "stepCount: \(String(describing: steps))")
        try expect(sleep?.kind == .category && sleep?.aggregation == nil && sleep?.allowedValues?.count == 6, "sleepAnalysis: \(String(describing: sleep))")
        let me = try await device.whoami().ok.body.json
        try expect(me.role == .device && me.patient == settings.patient, "whoami: \(me.role) \(String(describing: me.patient))")
    }

    func reportVersion1() async throws {
        let result = try await therapist.postWeeklyReport(path: .init(patientId: settings.patient), body: .json(Fixtures.version1)).ok.body.json
        try expect(result.outcome == .inserted, "outcome \(result.outcome)")
        try expect(result.report.syncVersion == 1 && result.report.samples.count == 3, "report \(result.report.syncVersion) with \(result.report.samples.count) samples")
        therapistSource = result.report.source
    }

    func feedFromNoAnchor() async throws {
        let page = try await device.getChanges(path: patient).ok.body.json
        try expect(page.samples.count == 3 && page.deletedObjects.isEmpty && !page.hasMore,
                   "\(page.samples.count) samples, \(page.deletedObjects.count) deleted, hasMore \(page.hasMore)")
        try expect(page.samples.allSatisfy { $0.source == therapistSource && $0.syncVersion == 1 }, "sources or versions differ")
        june18 = page.samples.first { $0.syncIdentifier == "\(Fixtures.reportID)/2020-06-18" }
        try expect(june18?.value == 400 && june18?.unit == "m", "June 18: \(String(describing: june18))")
        try expect(june18?.start == Fixtures.instant("2020-06-18T17:00:00Z"), "June 18 starts \(String(describing: june18?.start))")
        anchor = page.anchor
    }

    func reportVersion2CorrectsOneDay() async throws {
        let result = try await therapist.postWeeklyReport(path: .init(patientId: settings.patient), body: .json(Fixtures.version2)).ok.body.json
        try expect(result.outcome == .replaced, "outcome \(result.outcome)")
        let page = try await device.getChanges(path: patient, query: .init(anchor: anchor)).ok.body.json
        try expect(page.deletedObjects.count == 1 && page.samples.count == 1, "\(page.deletedObjects.count) deleted and \(page.samples.count) samples, not 1 and 1")
        let deleted = page.deletedObjects[0], added = page.samples[0]
        try expect(deleted.uuid == june18?.uuid, "the deleted object is not June 18's sample")
        try expect(deleted.deletedAt > Fixtures.instant("2020-06-19T00:00:00Z"), "deletedAt \(deleted.deletedAt)")
        try expect(added.value == 450 && added.syncVersion == 2 && added.uuid != june18?.uuid, "new sample \(added)")
        anchor = page.anchor
    }

    func resendIsIgnored() async throws {
        let result = try await therapist.postWeeklyReport(path: .init(patientId: settings.patient), body: .json(Fixtures.version2)).ok.body.json
        try expect(result.outcome == .ignored, "outcome \(result.outcome)")
        let page = try await device.getChanges(path: patient, query: .init(anchor: anchor)).ok.body.json
        try expect(page.samples.isEmpty && page.deletedObjects.isEmpty, "the resend changed the feed")
        anchor = page.anchor
    }

    func reportReadsBack() async throws {
        let report = try await therapist.getWeeklyReport(path: .init(patientId: settings.patient, syncIdentifier: Fixtures.reportID)).ok.body.json
        try expect(report.syncVersion == 2 && report.weekStart == "2020-06-15", "version \(report.syncVersion), week \(report.weekStart)")
        try expect(report.chart.map(\.day) == (15...21).map { "2020-06-\($0)" }, "chart days \(report.chart.map(\.day))")
        try expect(report.chart.map(\.values.count) == [0, 1, 0, 1, 1, 0, 0], "chart counts \(report.chart.map(\.values.count))")
        try expect(report.chart[3].values.first?.value == 450 && report.chart[3].values.first?.unit == "m", "June 18 in the chart")
        let list = try await therapist.listWeeklyReports(path: .init(patientId: settings.patient), query: .init(from: "2020-06-15", to: "2020-06-15")).ok.body.json
        try expect(list.reports.map(\.syncIdentifier) == [Fixtures.reportID], "listed \(list.reports.map(\.syncIdentifier))")
    }

    func deviceWritesStepsWithSyncIdentifiers() async throws {
        let path = PostSamples.Input.Path(patientId: settings.patient)
        let first = try await device.postSamples(path: path, body: .json(.init(samples: [Fixtures.steps(1200, hour: 9, version: 1), Fixtures.steps(800, hour: 10, version: 1)]))).ok.body.json
        try expect(first.results.map(\.outcome) == [.inserted, .inserted], "outcomes \(first.results.map(\.outcome))")
        let second = try await device.postSamples(path: path, body: .json(.init(samples: [Fixtures.steps(1200, hour: 9, version: 1), Fixtures.steps(850, hour: 10, version: 2)]))).ok.body.json
        try expect(second.results.map(\.outcome) == [.ignored, .replaced], "outcomes \(second.results.map(\.outcome))")
        try expect(second.results[0].reason == .sameVersion, "reason \(String(describing: second.results[0].reason))")
        let page = try await device.getChanges(path: patient, query: .init(anchor: anchor, types: [.heartRate, .stepCount])).ok.body.json
        try expect(page.samples.map(\.value) == [1200, 850] && page.deletedObjects.map(\.syncVersion) == [1],
                   "feed \(page.samples.map(\.value)) deleted \(page.deletedObjects.map(\.syncVersion))")
        let metadata = page.samples[0].metadata
        try expect(metadata.wasUserEntered == false && metadata.additionalProperties["cadence"]?.value2 == 96.5
                   && metadata.additionalProperties["device"]?.value1 == "watch" && metadata.additionalProperties["indoor"]?.value3 == true,
                   "metadata \(metadata)")
        anchor = page.anchor
    }

    func deleteBySyncIdentifier() async throws {
        let result = try await device.deleteSamples(path: .init(patientId: settings.patient),
                                                    body: .json(.init(syncIdentifiers: ["steps-2020-06-18T10"]))).ok.body.json
        try expect(result.results.map(\.outcome) == [.deleted], "outcomes \(result.results.map(\.outcome))")
        let page = try await device.getChanges(path: patient, query: .init(anchor: anchor)).ok.body.json
        try expect(page.samples.isEmpty && page.deletedObjects.map(\.syncIdentifier) == ["steps-2020-06-18T10"], "feed after the delete")
        anchor = page.anchor
    }

    func statistics() async throws {
        let stats = try await device.getStatistics(path: .init(patientId: settings.patient), query: .init(
            _type: .stepCount, start: Fixtures.instant("2020-06-18T00:00:00Z"), end: Fixtures.instant("2020-06-20T00:00:00Z"),
            interval: .day, timeZone: "UTC", options: [.cumulativeSum, .separateBySource])).ok.body.json
        try expect(stats._type == .stepCount && stats.unit == "count", "type \(stats._type) unit \(stats.unit)")
        try expect(stats.buckets.map(\.start) == [Fixtures.instant("2020-06-18T00:00:00Z"), Fixtures.instant("2020-06-19T00:00:00Z")],
                   "buckets \(stats.buckets.map(\.start))")
        try expect(stats.buckets.map(\.sum) == [1200, nil], "sums \(stats.buckets.map(\.sum))")
        try expect(stats.buckets[0].sources?.map(\.sum) == [1200], "per source \(String(describing: stats.buckets[0].sources))")
    }
}
