import Foundation

/// A patient's episodes with their periods, and review minutes per month, from the stores (docs/monitoring.md).
public struct MonitoringReader: Sendable {
    /// Samples and the audit log, through the status reader's store reads.
    public let status: PatientStatusReader
    /// Episodes and minutes.
    public let monitoring: any MonitoringStore

    /// A reader over the stores.
    public init(store: any SyncStore, access: any AccessStore, monitoring: any MonitoringStore) {
        status = PatientStatusReader(store: store, access: access); self.monitoring = monitoring
    }

    /// Every episode of the patient, oldest first, each with its periods as of `now` in the patient's zone.
    public func episodes(of patient: PatientRecord, devices: [TokenRecord], readable: Set<SampleType>?, now: Date) throws
        -> [(episode: MonitoringEpisode, periods: [MonitoringPeriod])] {
        try periods(of: patient, episodes: try monitoring.episodes(patient: patient.id), devices: devices, readable: readable, now: now)
    }

    /// `episodes`' periods for the given episode records of the patient.
    func periods(of patient: PatientRecord, episodes: [MonitoringEpisode], devices: [TokenRecord], readable: Set<SampleType>?,
                 now: Date) throws -> [(episode: MonitoringEpisode, periods: [MonitoringPeriod])] {
        let zone = Self.zone(of: patient)
        let today = DeviceDays.day(of: now, in: zone)
        guard let earliest = episodes.map(\.startDay).min() else { return [] }
        let days = try daysWithData(patient: patient.id, devices: devices, readable: readable, zone: zone, from: earliest, through: today)
        return episodes.map { ($0, MonitoringPeriods.periods(of: $0, today: today, withData: days)) }
    }

    /// The patient's time zone (UTC when the stored name is unknown).
    static func zone(of patient: PatientRecord) -> TimeZone { TimeZone(identifier: patient.timeZone) ?? TimeZone(identifier: "UTC")! }

    /// The days from `first` through `last` on which a live sample of one of the device sources starts.
    public func daysWithData(patient: String, devices: [TokenRecord], readable: Set<SampleType>?, zone: TimeZone,
                             from first: CalendarDay, through last: CalendarDay) throws -> Set<CalendarDay> {
        let sources = Set(devices.map(\.source))
        return Set(try status.store.sampleDays(patient: patient, zone: zone, from: first, through: last)
            .filter { $0.starts > 0 && sources.contains($0.source) && PatientStatusReader.mayRead($0.type, readable) }.map(\.day))
    }
}
