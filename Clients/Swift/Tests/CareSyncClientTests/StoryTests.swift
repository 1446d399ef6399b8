import Foundation
import Testing
@testable import CareSyncClient

/// The WWDC20 story through the client: a therapist's weekly report, a device's feed, a corrected day.
@Suite struct StoryTests {
    @Test func correctingOneDayCostsTheDeviceOneTombstoneAndOneSample() async throws {
        let server = try LiveServer()
        let therapist = server.therapist()
        let device = server.device()
        let anchors = MemoryAnchorStore()

        var builder = WeeklyReportBuilder(syncIdentifier: "report-2020-W25", weekStart: "2020-06-15", timeZone: "America/Los_Angeles")
        for (day, metres) in [("2020-06-16", 380.0), ("2020-06-18", 400.0), ("2020-06-20", 420.0)] {
            builder.set(key: day, type: "sixMinuteWalkTestDistance", value: metres, unit: "m",
                        start: Story.date("\(day)T10:00:00-07:00"), end: Story.date("\(day)T10:06:00-07:00"))
        }
        #expect(builder.derivedSyncIdentifier(key: "2020-06-18") == "report-2020-W25/2020-06-18")
        let (first, v1) = try await therapist.post(patient: "alice", builder: builder)
        #expect(first.added == ["2020-06-16", "2020-06-18", "2020-06-20"] && first.nextVersion == 1)
        #expect(v1?.outcome == .inserted && v1?.report.syncVersion == 1)

        // The device reads from no anchor: the three tests, with derived identifiers.
        var replica = Replica()
        for try await event in device.anchoredChanges(patient: "alice", store: anchors) { replica.apply(event) }
        #expect(Set(replica.samples.values.compactMap(\.syncIdentifier))
            == ["report-2020-W25/2020-06-16", "report-2020-W25/2020-06-18", "report-2020-W25/2020-06-20"])
        let before = replica.samples

        // Version 2 corrects June 18: the builder shows exactly that change before posting.
        builder.set(key: "2020-06-18", type: "sixMinuteWalkTestDistance", value: 450, unit: "m",
                    start: Story.date("2020-06-18T10:00:00-07:00"), end: Story.date("2020-06-18T10:06:00-07:00"))
        let (second, v2) = try await therapist.post(patient: "alice", builder: builder)
        #expect(second.added.isEmpty && second.changed == ["2020-06-18"] && second.removed.isEmpty)
        #expect(second.lastVersion == 1 && second.nextVersion == 2)
        #expect(v2?.outcome == .replaced && v2?.report.syncVersion == 2)

        // The device's next pull: exactly one deleted object and one new sample.
        var pages: [(samples: [Sample], deleted: [DeletedObject])] = []
        for try await event in device.anchoredChanges(patient: "alice", store: anchors) {
            if case .page(let samples, let deleted, _) = event { pages.append((samples, deleted)) }
            replica.apply(event)
        }
        #expect(pages.count == 1)
        #expect(pages.first?.samples.map(\.value) == [450] && pages.first?.samples.first?.syncVersion == 2)
        let corrected = try #require(before.values.first { $0.value == 400 })
        #expect(pages.first?.deleted.map(\.uuid) == [corrected.uuid])
        #expect(replica.samples.values.map(\.value).sorted() == [380, 420, 450])

        // A resend changes nothing: the builder posts nothing, and a direct resend is ignored.
        let (third, v3) = try await therapist.post(patient: "alice", builder: builder)
        #expect(third.isEmpty && v3 == nil)
        let resend = try await therapist.post(patient: "alice", report: builder.draft(version: 2))
        #expect(resend.outcome == .ignored)
        var after = Replica()
        for try await event in device.anchoredChanges(patient: "alice", store: anchors) { after.apply(event) }
        #expect(after.samples.isEmpty)
        #expect(try await Story.serverSamples(device) == replica.samples)
    }

    @Test func statisticsSumStepsPerDay() async throws {
        let server = try LiveServer()
        let device = server.device()
        _ = try await device.push(patient: "alice", samples: Story.steps(48))   // 2020-06-01 and 02, UTC hours
        let result = try await device.statistics(patient: "alice", StatisticsQuery(
            type: "stepCount", start: Story.date("2020-06-01T00:00:00Z"), end: Story.date("2020-06-03T00:00:00Z"),
            interval: .day, options: ["cumulativeSum"], timeZone: "UTC"))
        let values: [Double] = Story.steps(48).map(\.value)
        let expected: [Double?] = [values[0..<24].reduce(0, +), values[24..<48].reduce(0, +)]
        #expect(result.unit == "count" && result.buckets.count == 2)
        #expect(result.buckets.map(\.sum) == expected)
        #expect(result.buckets.first?.start == Story.date("2020-06-01T00:00:00Z"))
    }

    @Test func refusalsAreProblemsWithFieldErrorsAndRequestID() async throws {
        let server = try LiveServer()
        let device = server.device()
        var bad = Story.steps(2)
        bad[1].unit = "kg"
        do {
            _ = try await device.push(patient: "alice", samples: bad)
            Issue.record("a sample in kg of stepCount was accepted")
        } catch let problem as Problem {
            #expect(problem.status == 422 && problem.code == "validationFailed")
            #expect(problem.type == "https://caresync.example/problems/validationFailed")
            #expect(problem.errors.map(\.index) == [1] && problem.errors.first?.field == "unit")
            #expect(problem.requestID?.isEmpty == false)
        }
        await #expect(throws: Problem.self) { try await device.changes(patient: "bob", anchor: nil) }
    }
}
