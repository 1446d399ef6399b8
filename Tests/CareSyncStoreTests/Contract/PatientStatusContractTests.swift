import CareSyncCore
import CareSyncReferenceModel
import Foundation
import Testing

/// Patient status on every store: random writes from two devices and a therapist, replacements, deletions and a DST
/// change; the status equals an independent computation over the whole feed and the writes' own record.
struct PatientStatusContractTests {
    static let phone = "org.example.phone", watch = "org.example.watch", therapist = "org.example.therapist"
    /// 2020-03-20T19:00:00Z, a Friday; the 4-week window (from 2020-02-22 in Los Angeles) spans the 2020-03-08 change.
    static let now = Date(timeIntervalSince1970: 1_584_730_800)

    /// What the test itself knows: the last time each device token wrote at least one sample.
    struct Written { var lastReceived: [String: Date] = [:] }

    @Test(arguments: ContractStores.pairs, [UInt64(1), 2, 3])
    func statusEqualsAnIndependentComputation(pair: ContractStorePair, seed: UInt64) throws {
        let (store, access) = try pair.make()
        var random = SeededGenerator(seed: seed)
        let patient = PatientRecord(id: Contract.patient, timeZone: "America/Los_Angeles", createdAt: Self.now.addingTimeInterval(-90 * 86_400))
        try access.createPatient(patient)
        func token(_ id: String, _ role: Role, _ source: String) throws -> TokenRecord {
            let t = TokenRecord(id: id, secretHash: Array(repeating: 0, count: 32), role: role, patient: role == .device ? patient.id : nil,
                                careTeams: [], source: source, readTypes: nil, writeTypes: nil, createdAt: patient.createdAt, expiresAt: nil)
            try access.insertToken(t)
            return t
        }
        let devices = [try token("00000000000000a1", .device, Self.phone), try token("00000000000000a2", .device, Self.watch),
                       try token("00000000000000a3", .device, Self.phone)]
        let therapistToken = try token("00000000000000b1", .therapist, Self.therapist)
        var written = Written()
        let types: [SampleType] = [.stepCount, .heartRate, .sixMinuteWalkTestDistance]
        for step in 0..<60 {
            let writer = step % 7 == 6 ? therapistToken : devices[Int.random(in: 0..<devices.count, using: &random)]
            // Written in time order, 35 days back to 5 minutes ago; some stop early so a device falls silent.
            let at = Self.now.addingTimeInterval(-Double(60 - step) * 14 * 3600 + (writer.id == devices[1].id ? -3 * 86_400 : 0))
            let count = Int.random(in: 0...3, using: &random)
            let inputs = (0..<count).map { _ in
                let start = at.addingTimeInterval(-Double.random(in: 0...(40 * 86_400), using: &random).rounded())
                let id = "s\(Int.random(in: 0..<25, using: &random))"
                return SampleInput(type: types[Int.random(in: 0..<types.count, using: &random)], value: Double.random(in: 100...500, using: &random).rounded(),
                                   start: start, end: start.addingTimeInterval(Double.random(in: 0...7200, using: &random).rounded()),
                                   syncIdentifier: id, syncVersion: Int64(step))
            }
            let deleting = Int.random(in: 0..<5, using: &random) == 0 ? ["s\(Int.random(in: 0..<25, using: &random))"] : []
            try store.write { w in
                _ = try w.upsert(inputs, patient: patient.id, source: writer.source, now: at)
                if !deleting.isEmpty { _ = try w.delete(uuids: [], syncIdentifiers: deleting, patient: patient.id, source: writer.source, now: at) }
                try w.appendAudit(AuditRecord(time: at, tokenID: writer.id, role: writer.role, patient: patient.id, action: "samples.upsert",
                                              count: inputs.count, status: 200))
                try w.appendAudit(AuditRecord(time: at.addingTimeInterval(1), tokenID: writer.id, role: writer.role, patient: patient.id,
                                              action: "changes.read", count: 1, status: 200))
            }
            if writer.role == .device && !inputs.isEmpty { written.lastReceived[writer.id] = at }
        }
        let live = try Contract.readAll(store).samples
        for readable in [nil, Set([SampleType.heartRate])] as [Set<SampleType>?] {
            for zoneName in ["America/Los_Angeles", "Asia/Kathmandu"] {
                var asOf = patient
                asOf.timeZone = zoneName
                let reader = PatientStatusReader(store: store, access: access)
                let status = try reader.status(of: asOf, devices: devices, readable: readable, settings: StatusSettings(), now: Self.now)
                let expected = Self.expected(live: live, written: written, devices: devices, readable: readable, zone: TimeZone(identifier: zoneName)!)
                #expect(status.daysWithData == expected.days, "\(pair) seed \(seed) \(zoneName)")
                #expect(status.gaps == expected.gaps, "\(pair) seed \(seed) \(zoneName)")
                #expect(status.sources == expected.sources, "\(pair) seed \(seed) \(zoneName)")
                #expect(status.walkTest?.meters == (readable == nil ? expected.walk?.value : nil), "\(pair) seed \(seed)")
            }
        }
    }

    /// Days, gaps and sources computed directly: each day's bounds from Foundation's calendar, every live sample checked.
    static func expected(live: [Sample], written: Written, devices: [TokenRecord], readable: Set<SampleType>?, zone: TimeZone)
        -> (days: [CalendarDay], gaps: [DayRun], sources: [SourceStatus], walk: Sample?) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let todayStart = calendar.startOfDay(for: now)
        let firstStart = calendar.date(byAdding: .day, value: -27, to: todayStart)!
        let deviceSamples = live.filter { s in devices.contains { $0.source == s.source } && (readable?.contains(s.type) ?? true) }
        var days: [CalendarDay] = [], gaps: [DayRun] = []
        var dayStart = firstStart
        while dayStart <= todayStart {
            let next = calendar.date(byAdding: .day, value: 1, to: dayStart)!
            let c = calendar.dateComponents([.year, .month, .day], from: dayStart)
            let day = CalendarDay(year: c.year!, month: c.month!, day: c.day!)
            if deviceSamples.contains(where: { $0.start >= dayStart && $0.start < next }) {
                days.append(day)
            } else if let last = gaps.last, last.last.adding(days: 1) == day {
                gaps[gaps.count - 1].last = day
            } else {
                gaps.append(DayRun(first: day, last: day))
            }
            dayStart = next
        }
        let sources = Set(devices.map(\.source)).sorted().map { source in
            let received = devices.filter { $0.source == source }.compactMap { written.lastReceived[$0.id] }.max()
            let newest = deviceSamples.filter { $0.source == source && $0.start >= firstStart }.map(\.start).max()
            return SourceStatus(source: source, lastReceived: received, newestSampleStart: newest,
                                silent: received.map { now.timeIntervalSince($0) > 86_400 } ?? true)
        }
        let walk = live.filter { $0.type == .sixMinuteWalkTestDistance }.max { ($0.start, $0.uuid.uuidString) < ($1.start, $1.uuid.uuidString) }
        return (days, gaps, sources, walk)
    }
}
