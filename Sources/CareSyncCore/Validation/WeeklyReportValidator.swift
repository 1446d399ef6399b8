import Foundation

/// Turns a weekly report draft into a `WeeklyReportInput`, collecting every problem.
///
/// Body fields carry index nil; a sample's problems carry its index in `samples`. Keys must be
/// present, unique and free of `/` (so `<report>/<key>` is unambiguous); every sample must lie inside
/// the week `[weekStart 00:00, weekStart + 7 days 00:00)` read in the report's IANA time zone; the
/// samples' own sync fields and uuid are the report's to set, so they are refused.
public enum WeeklyReportValidator {
    /// Validates a report draft; throws `SyncError.validationFailed` listing every problem.
    public static func validate(_ draft: WeeklyReportDraft) throws -> WeeklyReportInput {
        var problems: [ValidationProblem] = []
        func problem(_ index: Int?, _ field: String, _ message: String) {
            problems.append(ValidationProblem(index: index, field: field, message: message))
        }

        if let identifier = draft.syncIdentifier {
            if identifier.isEmpty { problem(nil, "syncIdentifier", "must not be empty") }
            if identifier.utf8.count > SampleValidator.maxSyncIdentifierBytes / 2 {
                problem(nil, "syncIdentifier", "must be at most \(SampleValidator.maxSyncIdentifierBytes / 2) bytes")
            }
            // It names the report in paths, where such characters are refused (docs/api.md, "Ids in paths").
            if InvisibleCharacters.occur(in: identifier) {
                problem(nil, "syncIdentifier", "must not contain control or format characters (Unicode Cc, Cf, Zl, Zp)")
            }
        } else {
            problem(nil, "syncIdentifier", "is required")
        }
        if let version = draft.syncVersion {
            if version < 0 { problem(nil, "syncVersion", "must not be negative") }
        } else {
            problem(nil, "syncVersion", "is required")
        }
        var weekStart: CalendarDay?
        if let text = draft.weekStart {
            weekStart = CalendarDay(parsing: text)
            if weekStart == nil { problem(nil, "weekStart", "must be a calendar day YYYY-MM-DD") }
        } else {
            problem(nil, "weekStart", "is required")
        }
        var timeZone: TimeZone?
        if let name = draft.timeZone {
            timeZone = Self.timeZone(named: name)
            if timeZone == nil { problem(nil, "timeZone", "unknown time zone '\(name)'; use an IANA name such as Europe/Paris") }
        } else {
            problem(nil, "timeZone", "is required")
        }
        var week: (start: Date, end: Date)?
        if let weekStart, let timeZone {
            week = (weekStart.start(in: timeZone), weekStart.adding(days: 7).start(in: timeZone))
        }

        var seenKeys = Set<String>()
        var items: [WeeklyReportSampleInput] = []
        for (index, item) in draft.samples.enumerated() {
            let before = problems.count
            if let key = item.key {
                if key.isEmpty { problem(index, "key", "must not be empty") }
                if key.contains("/") { problem(index, "key", "must not contain '/'") }
                if key.utf8.contains(0) { problem(index, "key", "must not contain U+0000 (NUL)") }
                if key.utf8.count > SampleValidator.maxSyncIdentifierBytes / 2 { problem(index, "key", "is too long") }
                if !seenKeys.insert(key).inserted { problem(index, "key", "duplicate key '\(key)' in the report") }
            } else {
                problem(index, "key", "is required")
            }
            for (field, present) in [("uuid", item.sample.uuid != nil), ("syncIdentifier", item.sample.syncIdentifier != nil),
                                     ("syncVersion", item.sample.syncVersion != nil)] where present {
                problem(index, field, "is set by the report; leave it out")
            }
            var sample = item.sample
            sample.uuid = nil; sample.syncIdentifier = nil; sample.syncVersion = nil
            let input = SampleValidator.validate(sample, index: index, problems: &problems)
            if let input, let week, let weekStart, let name = draft.timeZone {
                let span = "the week \(weekStart) to \(weekStart.adding(days: 6)) in \(name)"
                if input.start < week.start || input.start >= week.end { problem(index, "start", "is outside \(span)") }
                if input.end > week.end { problem(index, "end", "is outside \(span)") }
            }
            if problems.count == before, let input, let key = item.key { items.append(WeeklyReportSampleInput(key: key, sample: input)) }
        }

        guard problems.isEmpty, let identifier = draft.syncIdentifier, let version = draft.syncVersion,
              let weekStart, let timeZone = draft.timeZone else { throw SyncError.validationFailed(problems) }
        return WeeklyReportInput(syncIdentifier: identifier, syncVersion: version, weekStart: weekStart,
                                 timeZone: timeZone, samples: items)
    }

    private static let knownZones = Set(TimeZone.knownTimeZoneIdentifiers)

    /// The IANA zone with this identifier, or nil (abbreviations and offsets such as `PST` or `GMT+2` are refused).
    public static func timeZone(named name: String) -> TimeZone? {
        guard name == "UTC" || knownZones.contains(name) else { return nil }
        return TimeZone(identifier: name)
    }
}
