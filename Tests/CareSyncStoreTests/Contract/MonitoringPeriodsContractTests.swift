import CareSyncCore
import CareSyncReferenceModel
import Foundation
import Testing

/// Days with data of monitoring periods on every store: random writes from two devices and a therapist, replacements,
/// deletions, a DST change; each period's count equals one computed directly from the whole feed.
struct MonitoringPeriodsContractTests {
    /// 2020-03-20T19:00:00Z: the episode from 2020-02-01 (Los Angeles) has a closed first period and one across the DST change.
    static let now = Date(timeIntervalSince1970: 1_584_730_800)

    @Test(arguments: ContractMonitoringStores.all, [UInt64(7), 8])
    func periodCountsEqualAnIndependentComputation(stores: ContractMonitoringStores, seed: UInt64) throws {
        let (store, access, monitoring) = try stores.make()
        var random = SeededGenerator(seed: seed)
        let patient = PatientRecord(id: "p1", timeZone: "America/Los_Angeles", createdAt: Self.now.addingTimeInterval(-90 * 86_400))
        try access.createPatient(patient)
        func token(_ id: String, _ role: Role, _ source: String) -> TokenRecord {
            TokenRecord(id: id, secretHash: [], role: role, patient: role == .device ? patient.id : nil, careTeams: [], source: source,
                        readTypes: nil, writeTypes: nil, createdAt: patient.createdAt, expiresAt: nil)
        }
        let devices = [token("00000000000000a1", .device, "org.example.phone"), token("00000000000000a2", .device, "org.example.watch")]
        let writers = devices + [token("00000000000000b1", .therapist, "org.example.therapist")]
        for step in 0..<40 {
            let writer = writers[Int.random(in: 0..<writers.count, using: &random)]
            let inputs = (0..<Int.random(in: 1...4, using: &random)).map { _ in
                let start = Self.now.addingTimeInterval(-Double.random(in: 0...(55 * 86_400), using: &random).rounded())
                return SampleInput(type: [.stepCount, .heartRate][Int.random(in: 0...1, using: &random)], value: 100, start: start,
                                   end: start.addingTimeInterval(Double.random(in: 0...(20 * 3600), using: &random).rounded()),
                                   syncIdentifier: "s\(Int.random(in: 0..<30, using: &random))", syncVersion: Int64(step))
            }
            let deleting = step % 5 == 4 ? ["s\(Int.random(in: 0..<30, using: &random))"] : []
            try store.write { w in
                _ = try w.upsert(inputs, patient: patient.id, source: writer.source, now: Self.now)
                if !deleting.isEmpty { _ = try w.delete(uuids: [], syncIdentifiers: deleting, patient: patient.id, source: writer.source, now: Self.now) }
            }
        }
        _ = try monitoring.startEpisode(MonitoringEpisode(patient: patient.id, startDay: CalendarDay(year: 2020, month: 2, day: 1),
                                                          startedBy: "t", startedAt: Self.now))
        let reader = MonitoringReader(store: store, access: access, monitoring: monitoring)
        let periods = try #require(try reader.episodes(of: patient, devices: devices, readable: nil, now: Self.now).first).periods
        #expect(periods.map(\.first) == [CalendarDay(year: 2020, month: 2, day: 1), CalendarDay(year: 2020, month: 3, day: 2)])
        #expect(periods.map(\.state) == [.complete, .inProgress])
        #expect(periods[1].daysLeft == 11)  // 2020-03-21 … 2020-03-31

        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: patient.timeZone)!
        let live = try Contract.readAll(store, patient: patient.id).samples.filter { s in devices.contains { $0.source == s.source } }
        for period in periods {
            var count = 0
            var dayStart = calendar.date(from: DateComponents(year: period.first.year, month: period.first.month, day: period.first.day))!
            for _ in 0...(period.countedThrough.daysSince1970 - period.first.daysSince1970) {
                let next = calendar.date(byAdding: .day, value: 1, to: dayStart)!
                if live.contains(where: { $0.start >= dayStart && $0.start < next }) { count += 1 }
                dayStart = next
            }
            #expect(period.daysWithData == count, "\(stores) seed \(seed) period \(period.number)")
            #expect(period.onPace == (count * 30 >= 16 * (period.countedThrough.daysSince1970 - period.first.daysSince1970 + 1)))
        }
    }
}
