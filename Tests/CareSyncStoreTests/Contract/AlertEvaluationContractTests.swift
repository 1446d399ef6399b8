import CareSyncCore
import Foundation
import Testing

/// Alert rules evaluated over every store with an injected clock: each rule raised once from the figures the status and
/// monitoring readers compute, not again while unresolved, resolved when its condition clears, and not raised again after
/// a therapist resolved it until the condition has cleared once.
@Suite struct AlertEvaluationContractTests {
    static let phone = "org.example.phone"
    /// 2020-09-16T12:00:00Z, a Wednesday: the last full week is 7–13 September, the one before 31 August–6 September.
    static let now = Date(timeIntervalSince1970: 1_600_257_600)
    static let hour: TimeInterval = 3600, day: TimeInterval = 86_400

    /// Patient p1 (UTC) in team physio with one device token on `phone`.
    func make(_ stores: ContractAlertStores) throws -> (ContractAlertStores.Stores, AlertEvaluator) {
        let s = try stores.make()
        try s.access.createPatient(PatientRecord(id: "p1", timeZone: "UTC", createdAt: Self.now.addingTimeInterval(-90 * Self.day)))
        try s.access.createCareTeam(name: "physio", now: Self.now)
        try s.access.addPatient("p1", toCareTeam: "physio")
        try s.access.insertToken(TokenRecord(id: "00000000000000d1", secretHash: Array(repeating: 0, count: 32), role: .device, patient: "p1",
                                             careTeams: [], source: Self.phone, readTypes: nil, writeTypes: nil,
                                             createdAt: Self.now.addingTimeInterval(-90 * Self.day), expiresAt: nil))
        return (s, AlertEvaluator(store: s.sync, access: s.access, monitoring: s.monitoring, alerts: s.alerts))
    }

    /// The device's write received at `at`, as the audit log records it.
    func received(_ s: ContractAlertStores.Stores, at: Date) async throws {
        try await s.access.commitAudit([AuditRecord(time: at, tokenID: "00000000000000d1", role: .device, patient: "p1",
                                                    action: "samples.upsert", count: 1, status: 200)])
    }

    /// Writes one sample of the device.
    func write(_ s: ContractAlertStores.Stores, _ type: SampleType, _ value: Double, at start: Date) throws {
        _ = try s.sync.upsert([Contract.makeInput(type: type, value: value, start: start, minutes: 6)], patient: "p1", source: Self.phone, now: start)
    }

    /// The rules of `events`, as "raised deviceSilent" etc.
    func names(_ events: [AlertEvent]) -> [String] { events.map { "\($0.kind == .raised ? "raised" : "resolved") \($0.rule.rawValue)" } }

    @Test(arguments: ContractAlertStores.all)
    func aSilentDeviceIsRaisedOnceAfterTheThresholdAndResolvedWhenItSendsAgain(stores: ContractAlertStores) async throws {
        let (s, evaluator) = try make(stores)
        let sent = Self.now.addingTimeInterval(-60 * Self.hour)
        try await received(s, at: sent)
        #expect(names(try evaluator.evaluate(patient: "p1", now: sent.addingTimeInterval(47 * Self.hour))) == [])
        let raised = try evaluator.evaluate(patient: "p1", now: sent.addingTimeInterval(49 * Self.hour))
        #expect(names(raised) == ["raised deviceSilent"])
        #expect(try s.alerts.alerts(AlertQuery(patient: "p1")).map(\.key.subject) == [Self.phone])
        #expect(try evaluator.evaluate(patient: "p1", now: sent.addingTimeInterval(50 * Self.hour)).isEmpty)
        try await received(s, at: sent.addingTimeInterval(50 * Self.hour))
        let cleared = try evaluator.evaluate(patient: "p1", now: sent.addingTimeInterval(51 * Self.hour))
        #expect(names(cleared) == ["resolved deviceSilent"] && cleared.first?.alertID == raised.first?.alertID)
        // The team's own threshold: silent after 1 hour.
        var rules = AlertRules(); rules.deviceSilentHours = 1
        try s.alerts.setRules(rules, careTeam: "physio")
        #expect(names(try evaluator.evaluate(patient: "p1", now: sent.addingTimeInterval(52 * Self.hour))) == ["raised deviceSilent"])
        // A disabled rule holds nowhere: its open alert resolves.
        rules.deviceSilentEnabled = false
        try s.alerts.setRules(rules, careTeam: "physio")
        #expect(names(try evaluator.evaluate(patient: "p1", now: sent.addingTimeInterval(53 * Self.hour))) == ["resolved deviceSilent"])
    }

    @Test(arguments: ContractAlertStores.all)
    func aWalkDropIsRaisedAndAfterATherapistResolvesItOnlyAgainOnceTheConditionCleared(stores: ContractAlertStores) async throws {
        let (s, evaluator) = try make(stores)
        try await received(s, at: Self.now)
        try write(s, .sixMinuteWalkTestDistance, 400, at: Self.now.addingTimeInterval(-3 * Self.day))
        try write(s, .sixMinuteWalkTestDistance, 349, at: Self.now.addingTimeInterval(-2 * Self.day))
        let raised = try evaluator.evaluate(patient: "p1", now: Self.now)
        #expect(names(raised) == ["raised walkTestDrop"])
        // A threshold above the drop: the condition cleared.
        var rules = AlertRules(); rules.walkTestDropMeters = 60
        try s.alerts.setRules(rules, careTeam: "physio")
        #expect(names(try evaluator.evaluate(patient: "p1", now: Self.now)) == ["resolved walkTestDrop"])
        try s.alerts.setRules(.defaults, careTeam: "physio")
        let again = try evaluator.evaluate(patient: "p1", now: Self.now)
        #expect(names(again) == ["raised walkTestDrop"])
        _ = try s.alerts.resolve(id: again[0].alertID, by: "tok_t1", at: Self.now)
        #expect(try evaluator.evaluate(patient: "p1", now: Self.now.addingTimeInterval(60)).isEmpty, "not again while it holds")
        try write(s, .sixMinuteWalkTestDistance, 360, at: Self.now.addingTimeInterval(-1 * Self.day))
        #expect(try evaluator.evaluate(patient: "p1", now: Self.now.addingTimeInterval(120)).isEmpty, "cleared: rearmed")
        try write(s, .sixMinuteWalkTestDistance, 300, at: Self.now.addingTimeInterval(-1 * Self.hour))
        #expect(names(try evaluator.evaluate(patient: "p1", now: Self.now.addingTimeInterval(180))) == ["raised walkTestDrop"])
    }

    @Test(arguments: ContractAlertStores.all)
    func weeklyStepsDownMoreThanThePercentageWeekOnWeek(stores: ContractAlertStores) async throws {
        let (s, evaluator) = try make(stores)
        try await received(s, at: Self.now)
        try write(s, .stepCount, 10_000, at: Self.now.addingTimeInterval(-14 * Self.day))  // Wed 2 September
        try write(s, .stepCount, 7_100, at: Self.now.addingTimeInterval(-7 * Self.day))   // Wed 9 September: down 29 %
        #expect(try evaluator.evaluate(patient: "p1", now: Self.now).isEmpty)
        try write(s, .stepCount, 1, at: Self.now.addingTimeInterval(-14 * Self.day + Self.hour))
        // This week's partial total does not count: only the last full week against the one before.
        try write(s, .stepCount, 100, at: Self.now.addingTimeInterval(-Self.hour))
        var rules = AlertRules(); rules.weeklyStepsDropPercent = 28
        try s.alerts.setRules(rules, careTeam: "physio")
        #expect(names(try evaluator.evaluate(patient: "p1", now: Self.now)) == ["raised weeklyStepsDrop"])
        #expect(try s.alerts.alerts(AlertQuery(patient: "p1", state: .open)).map(\.key.subject) == ["stepCount"])
    }

    @Test(arguments: ContractAlertStores.all)
    func aPeriodBehindPaceThatCanNoLongerReach16(stores: ContractAlertStores) async throws {
        let (s, evaluator) = try make(stores)
        try await received(s, at: Self.now)
        let episode = try s.monitoring.startEpisode(MonitoringEpisode(patient: "p1", startDay: CalendarDay(year: 2020, month: 9, day: 1),
                                                                      startedBy: "tok_t1", startedAt: Self.now))
        // Day 16 of the period with one day with data: 1 + today + 14 days left = 16 can still be reached, but behind pace.
        try write(s, .stepCount, 100, at: Self.now.addingTimeInterval(-2 * Self.day))
        #expect(names(try evaluator.evaluate(patient: "p1", now: Self.now)) == ["raised periodBehindPace"])
        let tomorrow = Self.now.addingTimeInterval(Self.day)
        let events = try evaluator.evaluate(patient: "p1", now: tomorrow)
        #expect(names(events) == ["raised periodCannotReach16"])
        #expect(try s.alerts.alerts(AlertQuery(patient: "p1")).map(\.key.subject).allSatisfy { $0 == "episode-\(episode.id)/period-1" })
        // The episode ends: no period in progress, both resolve.
        _ = try s.monitoring.endEpisode(patient: "p1", endDay: CalendarDay(year: 2020, month: 9, day: 16), by: "tok_t1", at: tomorrow)
        #expect(Set(names(try evaluator.evaluate(patient: "p1", now: tomorrow))) == ["resolved periodBehindPace", "resolved periodCannotReach16"])
    }

    @Test(arguments: ContractAlertStores.all)
    func aPatientInNoCareTeamRaisesNothing(stores: ContractAlertStores) async throws {
        let (s, evaluator) = try make(stores)
        try s.access.createPatient(PatientRecord(id: "p2", timeZone: "UTC", createdAt: Self.now))
        #expect(try evaluator.evaluate(patient: "p2", now: Self.now).isEmpty)
        #expect(names(try evaluator.evaluateAll(now: Self.now)) == ["raised deviceSilent"])
    }
}
