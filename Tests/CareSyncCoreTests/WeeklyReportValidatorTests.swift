import Foundation
import Testing
@testable import CareSyncCore

@Suite struct WeeklyReportValidatorTests {
    static func item(_ key: String?, start: String = "2020-06-18T10:00:00-07:00", end: String = "2020-06-18T10:06:00-07:00",
                     value: Double = 450) -> WeeklyReportSampleDraft {
        WeeklyReportSampleDraft(key: key, sample: SampleDraft(type: "sixMinuteWalkTestDistance", value: value, unit: "m",
                                                              start: start, end: end))
    }

    static func draft(samples: [WeeklyReportSampleDraft] = [item("2020-06-18")], weekStart: String? = "2020-06-15",
                      timeZone: String? = "America/Los_Angeles", version: Int64? = 2) -> WeeklyReportDraft {
        WeeklyReportDraft(syncIdentifier: "report-2020-W25", syncVersion: version, weekStart: weekStart,
                          timeZone: timeZone, samples: samples)
    }

    static func problems(_ draft: WeeklyReportDraft) -> [String] {
        do {
            _ = try WeeklyReportValidator.validate(draft)
            return []
        } catch let SyncError.validationFailed(problems) {
            return problems.map { "\($0.index.map(String.init) ?? "-"):\($0.field)" }
        } catch {
            Issue.record("unexpected \(error)")
            return []
        }
    }

    @Test func validReport() throws {
        let report = try WeeklyReportValidator.validate(Self.draft())
        #expect(report.syncIdentifier == "report-2020-W25" && report.syncVersion == 2)
        #expect(report.weekStart == CalendarDay(year: 2020, month: 6, day: 15) && report.timeZone == "America/Los_Angeles")
        #expect(report.samples.map(\.key) == ["2020-06-18"])
        #expect(report.samples.first?.sample.value == 450)
        #expect(report.samples.first?.sample.syncIdentifier == nil)
    }

    @Test func keysMustBeUnique() {
        #expect(Self.problems(Self.draft(samples: [Self.item("a"), Self.item("b"), Self.item("a")])) == ["2:key"])
        #expect(Self.problems(Self.draft(samples: [Self.item(nil), Self.item("x/y"), Self.item("")])) == ["0:key", "1:key", "2:key"])
    }

    @Test func samplesMustLieInTheWeekInItsTimeZone() {
        // Monday 2020-06-15 00:00 in Los Angeles is 07:00Z: 06:59Z is still the week before.
        #expect(Self.problems(Self.draft(samples: [Self.item("a", start: "2020-06-15T06:59:00Z", end: "2020-06-15T07:05:00Z")]))
                == ["0:start"])
        #expect(Self.problems(Self.draft(samples: [Self.item("a", start: "2020-06-15T07:00:00Z", end: "2020-06-15T07:05:00Z")]))
                == [])
        // Sunday 23:59 local is in; the sample may not run past the end of the week.
        #expect(Self.problems(Self.draft(samples: [Self.item("a", start: "2020-06-21T23:59:00-07:00", end: "2020-06-22T00:00:00-07:00")]))
                == [])
        #expect(Self.problems(Self.draft(samples: [Self.item("a", start: "2020-06-21T23:59:00-07:00", end: "2020-06-22T00:01:00-07:00")]))
                == ["0:end"])
        #expect(Self.problems(Self.draft(samples: [Self.item("a", start: "2020-06-22T07:00:00Z", end: "2020-06-22T07:00:00Z")]))
                == ["0:start"])
        // The same instant is inside in UTC.
        #expect(Self.problems(Self.draft(samples: [Self.item("a", start: "2020-06-15T06:59:00Z", end: "2020-06-15T07:05:00Z")],
                                         timeZone: "UTC")) == [])
    }

    @Test func bodyFields() {
        #expect(Self.problems(Self.draft(weekStart: "2020-02-30")) == ["-:weekStart"])
        #expect(Self.problems(Self.draft(timeZone: "Mars/Olympus")) == ["-:timeZone"])
        #expect(Self.problems(Self.draft(timeZone: "PST")) == ["-:timeZone"])
        #expect(Self.problems(Self.draft(version: nil)) == ["-:syncVersion"])
        #expect(Set(Self.problems(WeeklyReportDraft())) == ["-:syncIdentifier", "-:syncVersion", "-:weekStart", "-:timeZone"])
    }

    /// A report identifier names the report in paths, so it holds no control or format characters (issue 25).
    @Test(arguments: ["report\u{0}W25", "report\r\nW25", "report\u{202E}52W", "report\u{200B}W25"])
    func identifierWithoutInvisibleCharacters(identifier: String) {
        var draft = Self.draft()
        draft.syncIdentifier = identifier
        #expect(Self.problems(draft) == ["-:syncIdentifier"])
    }

    @Test func aNULInAKeyIsRefused() {
        #expect(Self.problems(Self.draft(samples: [Self.item("2020-06-18\u{0}x")])) == ["0:key"])
    }

    @Test func reportSetsTheSamplesSyncFields() {
        var item = Self.item("a")
        item.sample.syncIdentifier = "mine"; item.sample.syncVersion = 9; item.sample.uuid = UUID().uuidString
        #expect(Self.problems(Self.draft(samples: [item])) == ["0:uuid", "0:syncIdentifier", "0:syncVersion"])
    }

    @Test func sampleProblemsCarryTheirIndex() {
        var bad = Self.item("b", value: -3)
        bad.sample.type = "stepCount"; bad.sample.unit = "count"
        #expect(Self.problems(Self.draft(samples: [Self.item("a"), bad])) == ["1:value"])
    }
}
