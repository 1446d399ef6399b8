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
        try statuses(of: [patient], devices: [patient.id: devices], readable: readable, settings: settings, now: now)[0]
    }

    /// The status of each patient, in the order given, from one read of each store for all of them (a care team's):
    /// `devices` maps a patient to its device tokens.
    public func statuses(of patients: [PatientRecord], devices: [String: [TokenRecord]], readable: Set<SampleType>?,
                         settings: StatusSettings, now: Date) throws -> [PatientStatus] {
        let windows = patients.map { StatusWindow(patient: $0, settings: settings, now: now) }
        guard let first = windows.map(\.first).min(), let last = windows.map(\.last).max() else { return [] }
        let figures = try store.sampleDays(patients: Dictionary(windows.map { ($0.patient, $0.zone) }, uniquingKeysWith: { a, _ in a }),
                                           from: first, through: last)
        let walks = Self.mayRead(.sixMinuteWalkTestDistance, readable)
            ? try store.newestSamples(patients: patients.map(\.id), type: .sixMinuteWalkTestDistance, limit: 2) : [:]
        let tokens = patients.flatMap { p in (devices[p.id] ?? []).map { DeviceLastReceived.Device(patient: p.id, token: $0.id) } }
        let received = try DeviceLastReceived(access: access, scanLimit: auditScanLimit).times(of: tokens)
        return zip(patients, windows).map { patient, window in
            status(of: patient, in: window, figures: (figures[patient.id] ?? []).filter { Self.mayRead($0.type, readable) },
                   walks: walks[patient.id] ?? [], devices: devices[patient.id] ?? [], received: received, readable: readable,
                   settings: settings, now: now)
        }
    }

    /// The days one patient's status reads: the gap window and the two weeks of totals, in its zone.
    struct StatusWindow {
        let patient: String
        let zone: TimeZone
        let today: CalendarDay
        let windowStart: CalendarDay
        let monday: CalendarDay

        init(patient: PatientRecord, settings: StatusSettings, now: Date) {
            self.patient = patient.id
            zone = TimeZone(identifier: patient.timeZone) ?? TimeZone(identifier: "UTC")!
            today = LocalDayStarts.day(of: SyncRules.milliseconds(now), in: zone)
            windowStart = today.adding(days: -(7 * settings.gapWeeks - 1))
            monday = PatientStatusReader.monday(of: today)
        }

        /// The first and last day read.
        var first: CalendarDay { min(windowStart, monday.adding(days: -7)) }
        var last: CalendarDay { max(today, monday.adding(days: 6)) }
    }

    /// One patient's status from what was read for it: its readable figures over the window, its latest walks (newest
    /// first) and the last write of every device token read.
    func status(of patient: PatientRecord, in window: StatusWindow, figures: [SampleDay], walks: [Sample], devices: [TokenRecord],
                received lastWrites: [DeviceLastReceived.Device: Date], readable: Set<SampleType>?, settings: StatusSettings,
                now: Date) -> PatientStatus {
        let (today, windowStart, monday) = (window.today, window.windowStart, window.monday)
        let started = figures.filter { $0.starts > 0 && $0.day >= windowStart && $0.day <= today }
        let bySource = Dictionary(grouping: devices, by: \.source)
        var sources: [SourceStatus] = []
        for source in bySource.keys.sorted() {
            let received = bySource[source, default: []].compactMap { lastWrites[.init(patient: patient.id, token: $0.id)] }.max()
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
        let walk = Self.mayRead(.sixMinuteWalkTestDistance, readable) ? Self.walkChange(walks) : nil
        let attention = Attention(silentSources: sources.filter(\.silent).count, noDevice: bySource.isEmpty,
                                  daysWithoutDataLastWeek: missingLastWeek, walkDeclined: (walk?.change ?? 0) < 0)
        var status = PatientStatus(patient: patient.id, timeZone: window.zone.identifier, now: now, sources: sources, windowStart: windowStart,
                                   today: today, daysWithData: days.sorted(), gaps: gaps, weeks: weeks, walkTest: walk, attention: attention)
        status.displayName = patient.displayName
        return status
    }

    /// Whether `type` is within `readable` (nil: every type).
    static func mayRead(_ type: SampleType, _ readable: Set<SampleType>?) -> Bool { readable?.contains(type) ?? true }

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
        Self.walkChange(try store.newestSamples(patient: patient, type: .sixMinuteWalkTestDistance, limit: 2))
    }

    /// The latest six-minute walk by start (any source) and the one before it, from the newest walks, newest first.
    static func walkChange(_ ordered: [Sample]) -> WalkTestChange? {
        guard let latest = ordered.first else { return nil }
        return WalkTestChange(start: latest.start, meters: latest.value, previousMeters: ordered.dropFirst().first?.value)
    }
}
