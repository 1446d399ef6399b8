import Foundation

/// Computes `PatientStatus` from what the stores answer: each source's sample starts in the window and the latest walks
/// (`SyncStore.sampleStarts`, `newestSamples`), the statistics engine, and the audit log for the server time of each
/// device's last write (docs/status.md).
public struct PatientStatusReader: Sendable {
    /// The samples.
    public let store: any SyncStore
    /// Tokens (which sources are devices) and the audit log (when they last wrote).
    public let access: any AccessStore
    /// The most audit records read per device token when looking for its last write.
    public var auditScanLimit = 5_000

    /// A reader over two stores.
    public init(store: any SyncStore, access: any AccessStore) { self.store = store; self.access = access }

    /// The status of `patient` at `now`; `readable` (nil: all) limits the types that count, as a token's read types do.
    /// `devices` are the patient's device tokens (revoked ones included: what they wrote still counts).
    public func status(of patient: PatientRecord, devices: [TokenRecord], readable: Set<SampleType>?,
                       settings: StatusSettings, now: Date) throws -> PatientStatus {
        let zone = TimeZone(identifier: patient.timeZone) ?? TimeZone(identifier: "UTC")!
        let today = DeviceDays.day(of: now, in: zone)
        let windowStart = today.adding(days: -(7 * settings.gapWeeks - 1))
        let from = windowStart.start(in: zone)
        let bySource = Dictionary(grouping: devices, by: \.source)
        var sources: [SourceStatus] = []
        var starts: [Date] = []
        for source in bySource.keys.sorted() {
            let own = try store.sampleStarts(patient: patient.id, source: source, types: readable, from: from)
            starts += own
            let received = try bySource[source, default: []].compactMap { try lastReceived(patient: patient.id, token: $0.id) }.max()
            // A source none of whose tokens still works (revoked, expired) is not expected to sync: never silent.
            let expected = bySource[source, default: []].contains { $0.isUsable(at: now) }
            let silent = expected && (received.map { now.timeIntervalSince($0) > settings.silentAfter } ?? true)
            var status = SourceStatus(source: source, lastReceived: received, newestSampleStart: own.max(), silent: silent)
            status.active = expected
            sources.append(status)
        }
        let days = DeviceDays.days(starting: starts, in: zone, from: windowStart, through: today)
        let gaps = DeviceDays.gaps(withData: days, from: windowStart, through: today)
        let weekStart = max(windowStart, today.adding(days: -6))
        let missingLastWeek = (0...(today.daysSince1970 - weekStart.daysSince1970))
            .filter { !days.contains(weekStart.adding(days: $0)) }.count
        let weeks = try Self.mayRead(.stepCount, readable) ? [weekTotals(patient: patient.id, type: .stepCount, zone: zone, today: today)] : []
        let walk = try Self.mayRead(.sixMinuteWalkTestDistance, readable) ? latestWalk(patient: patient.id) : nil
        let attention = Attention(silentSources: sources.filter(\.silent).count, noDevice: bySource.isEmpty,
                                  daysWithoutDataLastWeek: missingLastWeek, walkDeclined: (walk?.change ?? 0) < 0)
        var status = PatientStatus(patient: patient.id, timeZone: zone.identifier, now: now, sources: sources, windowStart: windowStart,
                                   today: today, daysWithData: days.sorted(), gaps: gaps, weeks: weeks, walkTest: walk, attention: attention)
        status.displayName = patient.displayName
        return status
    }

    /// Whether `type` is within `readable` (nil: every type).
    static func mayRead(_ type: SampleType, _ readable: Set<SampleType>?) -> Bool { readable?.contains(type) ?? true }

    /// The time of the newest successful sample write by `token` for `patient` in the audit log, within the scan limit.
    func lastReceived(patient: String, token: String) throws -> Date? {
        try DeviceLastReceived(access: access, scanLimit: auditScanLimit).time(patient: patient, token: token)
    }

    /// This and last week's totals of a cumulative type, weeks from Monday 00:00 in `zone`.
    func weekTotals(patient: String, type: SampleType, zone: TimeZone, today: CalendarDay) throws -> WeekTotals {
        // 1970-01-05 was a Monday.
        let sinceMonday = ((today.daysSince1970 - 4) % 7 + 7) % 7
        let monday = today.adding(days: -sinceMonday)
        let lastMonday = monday.adding(days: -7)
        let query = StatisticsQuery(type: type, start: lastMonday.start(in: zone), end: monday.adding(days: 7).start(in: zone),
                                    interval: .week, anchorDate: lastMonday.start(in: zone), timeZone: zone.identifier,
                                    options: .cumulativeSum)
        let buckets = try store.statistics(patient: patient, query: query).buckets
        let sum = { (day: CalendarDay) in buckets.first { $0.start == day.start(in: zone) }?.values.sum }
        return WeekTotals(type: type, thisWeekStart: monday, thisWeek: sum(monday), lastWeek: sum(lastMonday))
    }

    /// The latest six-minute walk by start (any source) and the one before it.
    func latestWalk(patient: String) throws -> WalkTestChange? {
        let ordered = try store.newestSamples(patient: patient, type: .sixMinuteWalkTestDistance, limit: 2)
        guard let latest = ordered.first else { return nil }
        return WalkTestChange(start: latest.start, meters: latest.value, previousMeters: ordered.dropFirst().first?.value)
    }
}
