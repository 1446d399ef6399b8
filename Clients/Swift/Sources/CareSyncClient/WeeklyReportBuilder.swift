import Foundation

/// Builds the versions of one weekly report for a therapist client.
///
/// Set each key's sample (`key` is the report-local id, such as the day `2020-06-18`); each becomes an
/// ordinary sample with the derived sync identifier `<syncIdentifier>/<key>`. ``change(since:)`` compares
/// the content with the last posted version and tells the minimal change (keys added, changed, removed)
/// and the version to post: the last version + 1 when the content changed, none when it did not, so a
/// resend never bumps the version. ``CareSyncClient/post(patient:builder:)`` does both.
public struct WeeklyReportBuilder: Sendable, Hashable {
    /// The report's identifier (`report-2020-W25`).
    public var syncIdentifier: String
    /// The first day of the week, `YYYY-MM-DD`.
    public var weekStart: String
    /// The IANA time zone the week is read in.
    public var timeZone: String
    /// The samples by key.
    public private(set) var samples: [String: ReportSampleDraft] = [:]

    /// A builder of the report `syncIdentifier` for the week from `weekStart` in `timeZone`.
    public init(syncIdentifier: String, weekStart: String, timeZone: String) {
        self.syncIdentifier = syncIdentifier
        self.weekStart = weekStart
        self.timeZone = timeZone
    }

    /// The sync identifier the server gives the sample of `key`: `<report>/<key>`.
    public func derivedSyncIdentifier(key: String) -> String { "\(syncIdentifier)/\(key)" }

    /// Sets the sample of `key` (replacing any earlier one).
    public mutating func set(key: String, type: String, value: Double, unit: String?, start: Date, end: Date,
                             metadata: [String: MetadataValue]? = nil) {
        samples[key] = ReportSampleDraft(key: key, type: type, value: value, unit: unit, start: start, end: end, metadata: metadata)
    }

    /// Removes the sample of `key`.
    public mutating func remove(key: String) { samples[key] = nil }

    /// The change from `last` (the stored version, nil when never posted) to this content.
    public func change(since last: WeeklyReport?) -> ReportChange {
        let stored = Dictionary((last?.samples ?? []).map { ($0.key, $0.sample) }, uniquingKeysWith: { a, _ in a })
        let added = samples.keys.filter { stored[$0] == nil }.sorted()
        let removed = stored.keys.filter { samples[$0] == nil }.sorted()
        let changed = samples.filter { key, draft in stored[key].map { !Self.sameContent(draft, $0) } ?? false }.keys.sorted()
        let headerChanged = last.map { $0.weekStart != weekStart || $0.timeZone != timeZone } ?? true
        let isEmpty = !headerChanged && added.isEmpty && changed.isEmpty && removed.isEmpty
        let version: Int? = isEmpty ? nil : (last.map { $0.syncVersion + 1 } ?? 1)
        return ReportChange(syncIdentifier: syncIdentifier, added: added, changed: changed, removed: removed,
                            lastVersion: last?.syncVersion, nextVersion: version)
    }

    /// The body to post as `version`.
    public func draft(version: Int) -> WeeklyReportDraft {
        WeeklyReportDraft(syncIdentifier: syncIdentifier, syncVersion: version, weekStart: weekStart, timeZone: timeZone,
                          samples: samples.values.sorted { $0.key < $1.key })
    }

    /// Whether `draft` has the content of the stored `sample` (type, value, unit, start, end, metadata),
    /// as the server compares: values to a relative 1e-9, instants to the millisecond. A different
    /// unit counts as a change (the server stores canonical units; posting then is harmless).
    static func sameContent(_ draft: ReportSampleDraft, _ sample: Sample) -> Bool {
        func ms(_ d: Date) -> Int64 { Int64((d.timeIntervalSince1970 * 1000).rounded(.down)) }
        let tolerance = 1e-9 * max(abs(draft.value), abs(sample.value))
        return draft.type == sample.type && draft.unit == sample.unit && abs(draft.value - sample.value) <= tolerance
            && ms(draft.start) == ms(sample.start) && ms(draft.end) == ms(sample.end)
            && (draft.metadata ?? [:]) == sample.metadata
    }
}

/// The minimal change a report version makes, to show before posting.
public struct ReportChange: Sendable, Hashable, CustomStringConvertible {
    /// The report.
    public var syncIdentifier: String
    /// Keys new in this version (each inserts one sample).
    public var added: [String]
    /// Keys whose content changed (each one tombstone and one new sample).
    public var changed: [String]
    /// Keys gone from this version (each one tombstone).
    public var removed: [String]
    /// The stored version, nil when never posted.
    public var lastVersion: Int?
    /// The version to post; nil when nothing changed (nothing to post).
    public var nextVersion: Int?

    /// Whether there is nothing to post.
    public var isEmpty: Bool { nextVersion == nil }

    public var description: String {
        guard let nextVersion else { return "\(syncIdentifier): no change (version \(lastVersion.map(String.init) ?? "none"))" }
        return "\(syncIdentifier) v\(lastVersion.map(String.init) ?? "–") → v\(nextVersion): "
            + "added \(added), changed \(changed), removed \(removed)"
    }
}

extension CareSyncClient {
    /// Posts `builder`'s content as a new version if it differs from the stored one; returns the change and,
    /// when something was posted, the answer. `preview` sees the change before anything is sent.
    public func post(patient: String, builder: WeeklyReportBuilder,
                     preview: @Sendable (ReportChange) -> Void = { _ in }) async throws -> (ReportChange, WeeklyReportAnswer?) {
        let last = try await weeklyReport(patient: patient, syncIdentifier: builder.syncIdentifier)
        let change = builder.change(since: last)
        preview(change)
        guard let version = change.nextVersion else { return (change, nil) }
        return (change, try await post(patient: patient, report: builder.draft(version: version)))
    }
}
