import Foundation

/// Computes `PatientStatus` from what the stores answer: the figures per day, source and type over the window and the
/// two weeks of totals (`SyncStore.sampleDays`), the latest walks (`newestSamples`), and the audit log for the server
/// time of each device's last write (docs/status.md).
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
        let today = LocalDayStarts.day(of: SyncRules.milliseconds(now), in: zone)
        let windowStart = today.adding(days: -(7 * settings.gapWeeks - 1))
        let monday = Self.monday(of: today)
        let figures = try store.sampleDays(patient: patient.id, zone: zone, from: min(windowStart, monday.adding(days: -7)),
                                           through: max(today, monday.adding(days: 6))).filter { Self.mayRead($0.type, readable) }
        let started = figures.filter { $0.starts > 0 && $0.day >= windowStart && $0.day <= today }
        let bySource = Dictionary(grouping: devices, by: \.source)
        var sources: [SourceStatus] = []
        for source in bySource.keys.sorted() {
            let received = try bySource[source, default: []].compactMap { try lastReceived(patient: patient.id, token: $0.id) }.max()
            // A source none of whose tokens still works (revoked, expired) is not expected to sync: never silent.
            let expected = bySource[source, default: []].contains { $0.isUsable(at: now) }
            let silent = expected && (received.map { now.timeIntervalSince($0) > settings.silentAfter } ?? true)
            let newest = started.filter { $0.source == source }.compactMap(\.newestStart).max()
            var status = SourceStatus(source: source, lastReceived: received, newestSampleStart: newest, silent: silent)
            status.active = expected
            sources.append(status)
        }
        let days = Set(started.filter { bySource[$0.source] != nil }.map(\.day))
        let gaps = DeviceDays.gaps(withData: days, from: windowStart, through: today)
        let weekStart = max(windowStart, today.adding(days: -6))
        let missingLastWeek = (0...(today.daysSince1970 - weekStart.daysSince1970))
            .filter { !days.contains(weekStart.adding(days: $0)) }.count
        let weeks = Self.mayRead(.stepCount, readable) ? [Self.totals(of: .stepCount, in: figures, monday: monday)] : []
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

    /// The Monday (00:00 in the patient's zone starts the week) of the week holding `day`.
    static func monday(of day: CalendarDay) -> CalendarDay {
        // 1970-01-05 was a Monday.
        day.adding(days: -(((day.daysSince1970 - 4) % 7 + 7) % 7))
    }

    /// This (from `monday`) and last week's totals of a cumulative type over every source: the sum of each day's
    /// prorated figures, nil for a week where no sample counted (as the statistics engine's week buckets).
    static func totals(of type: SampleType, in figures: [SampleDay], monday: CalendarDay) -> WeekTotals {
        func total(from first: CalendarDay) -> Double? {
            let week = figures.filter { $0.type == type && $0.counted > 0 && $0.day >= first && $0.day < first.adding(days: 7) }
            return week.isEmpty ? nil : week.sorted { ($0.day, $0.source) < ($1.day, $1.source) }.reduce(0) { $0 + $1.sum }
        }
        return WeekTotals(type: type, thisWeekStart: monday, thisWeek: total(from: monday), lastWeek: total(from: monday.adding(days: -7)))
    }

    /// The totals of a cumulative type for the week holding `today` and the week before it, weeks from Monday 00:00 in `zone`.
    func weekTotals(patient: String, type: SampleType, zone: TimeZone, today: CalendarDay) throws -> WeekTotals {
        let monday = Self.monday(of: today)
        let figures = try store.sampleDays(patient: patient, zone: zone, from: monday.adding(days: -7), through: monday.adding(days: 6))
        return Self.totals(of: type, in: figures, monday: monday)
    }

    /// The latest six-minute walk by start (any source) and the one before it.
    func latestWalk(patient: String) throws -> WalkTestChange? {
        let ordered = try store.newestSamples(patient: patient, type: .sixMinuteWalkTestDistance, limit: 2)
        guard let latest = ordered.first else { return nil }
        return WalkTestChange(start: latest.start, meters: latest.value, previousMeters: ordered.dropFirst().first?.value)
    }
}
