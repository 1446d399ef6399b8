import CareSyncCore
import Foundation
import Testing

/// Alert rules and alerts on every store: rules per team, an alert raised once per team, patient, rule and subject while
/// unresolved, resolved by a therapist or because its condition cleared, rearmed, listed by team, patient and state, and
/// its webhook events in the outbox (no figures, never coalesced).
@Suite struct AlertContractTests {
    static let t0 = Date(timeIntervalSince1970: 1_600_000_000)
    static let silentPhone = AlertKey(rule: .deviceSilent, subject: "org.example.phone")

    /// A plan raising `keys` for `patient` of `team` at `at`.
    static func raise(_ keys: [AlertKey], patient: String = "p1", team: String = "physio", at: Date = t0) -> AlertPlan {
        var plan = AlertPlan(now: at)
        plan.raise = keys.map { Alert(id: Alert.makeID(), careTeam: team, patient: patient, key: $0, raisedAt: at) }
        return plan
    }

    /// An evaluation that read an erased patient's figures before the erasure raises nothing for them when it applies
    /// its plan after it: no alert, no webhook event naming the erased id; the other patient's alert is raised.
    @Test(arguments: ContractAlertStores.all)
    func aPatientErasedSinceTheEvaluationGetsNoAlert(stores: ContractAlertStores) throws {
        let s = try stores.make()
        for patient in ["p1", "p2"] { try s.access.createPatient(PatientRecord(id: patient, timeZone: "UTC", createdAt: Self.t0)) }
        var plan = Self.raise([Self.silentPhone])
        plan.raise += Self.raise([Self.silentPhone], patient: "p2").raise
        _ = try #require(try s.erasure.erase(ErasureRequest(patient: "p1", tokenID: "admin", time: Self.t0)))
        let events = try s.alerts.apply(plan)
        #expect(events.map(\.patient) == ["p2"])
        #expect(try s.alerts.alerts(AlertQuery(careTeam: "physio", patient: "p1")).isEmpty)
        #expect(try s.alerts.current(careTeam: "physio", patient: "p2").count == 1)
    }

    @Test(arguments: ContractAlertStores.all)
    func rulesAreTheDefaultsUntilATeamSetsItsOwn(stores: ContractAlertStores) throws {
        let s = try stores.make()
        #expect(try s.alerts.rules(careTeam: "physio") == nil)
        var rules = AlertRules()
        rules.deviceSilentHours = 12; rules.weeklyStepsDropPercent = 42.5; rules.walkTestDropEnabled = false; rules.periodBehindPaceEnabled = false
        try s.alerts.setRules(rules, careTeam: "physio")
        #expect(try s.alerts.rules(careTeam: "physio") == rules)
        #expect(try s.alerts.rules(careTeam: "cardio") == nil)
        rules.walkTestDropMeters = 75; rules.walkTestDropEnabled = true
        try s.alerts.setRules(rules, careTeam: "physio")
        #expect(try s.alerts.rules(careTeam: "physio") == rules)
    }

    @Test(arguments: ContractAlertStores.all)
    func anAlertIsRaisedOnceWhileUnresolved(stores: ContractAlertStores) throws {
        let s = try stores.make()
        let first = try s.alerts.apply(Self.raise([Self.silentPhone]))
        #expect(first.map(\.kind) == [.raised] && first.first?.rule == .deviceSilent && first.first?.patient == "p1")
        // The same key again, open or acknowledged: nothing new.
        #expect(try s.alerts.apply(Self.raise([Self.silentPhone], at: Self.t0.addingTimeInterval(60))).isEmpty)
        let id = try #require(first.first?.alertID)
        let acknowledged = try s.alerts.acknowledge(id: id, by: "tok_t1", at: Self.t0.addingTimeInterval(120))
        #expect(acknowledged?.state == .acknowledged && acknowledged?.acknowledgedBy == "tok_t1")
        #expect(acknowledged?.acknowledgedAt == Self.t0.addingTimeInterval(120))
        #expect(try s.alerts.apply(Self.raise([Self.silentPhone], at: Self.t0.addingTimeInterval(180))).isEmpty)
        // Another team, patient or subject is another alert.
        let others = try s.alerts.apply(Self.raise([Self.silentPhone], team: "cardio"))
            + s.alerts.apply(Self.raise([Self.silentPhone], patient: "p2"))
            + s.alerts.apply(Self.raise([AlertKey(rule: .deviceSilent, subject: "org.example.watch")]))
        #expect(others.count == 3)
        #expect(try s.alerts.alerts(AlertQuery(careTeam: "physio", patient: "p1")).count == 2)
        #expect(try s.alerts.current(careTeam: "physio", patient: "p1").map(\.id).contains(id))
        #expect(try s.alerts.alert(id: "alert_none") == nil)
    }

    @Test(arguments: ContractAlertStores.all)
    func resolvedByATherapistOrWhenTheConditionClears(stores: ContractAlertStores) throws {
        let s = try stores.make()
        let raised = try s.alerts.apply(Self.raise([Self.silentPhone, AlertKey(rule: .walkTestDrop, subject: "sixMinuteWalkTestDistance")]))
        let silentID = try #require(raised.first { $0.rule == .deviceSilent }?.alertID)
        let walkID = try #require(raised.first { $0.rule == .walkTestDrop }?.alertID)
        // Automatically: once, with no token.
        var plan = AlertPlan(now: Self.t0.addingTimeInterval(3600))
        plan.resolve = [silentID]
        let resolved = try s.alerts.apply(plan)
        #expect(resolved.map(\.kind) == [.resolved] && resolved.first?.alertID == silentID && resolved.first?.time == plan.now)
        #expect(try s.alerts.apply(plan).isEmpty)
        let auto = try s.alerts.alert(id: silentID)
        #expect(auto?.state == .resolved && auto?.resolvedBy == nil && auto?.resolvedAt == plan.now)
        #expect(try !s.alerts.current(careTeam: "physio", patient: "p1").map(\.id).contains(silentID))
        // By a therapist: kept in `current` until rearmed; a resolved alert cannot be acknowledged or resolved again.
        let manual = try s.alerts.resolve(id: walkID, by: "tok_t1", at: Self.t0.addingTimeInterval(7200))
        #expect(manual?.state == .resolved && manual?.resolvedBy == "tok_t1")
        #expect(throws: AlertStoreError.alreadyResolved) { try s.alerts.resolve(id: walkID, by: "tok_t1", at: Self.t0) }
        #expect(throws: AlertStoreError.alreadyResolved) { try s.alerts.acknowledge(id: walkID, by: "tok_t1", at: Self.t0) }
        #expect(try s.alerts.resolve(id: "alert_none", by: "tok_t1", at: Self.t0) == nil)
        #expect(try s.alerts.current(careTeam: "physio", patient: "p1").map(\.id) == [walkID])
        var rearm = AlertPlan(now: Self.t0.addingTimeInterval(9000))
        rearm.rearm = [walkID]
        #expect(try s.alerts.apply(rearm).isEmpty)
        #expect(try s.alerts.alert(id: walkID)?.rearmedAt == rearm.now)
        #expect(try s.alerts.current(careTeam: "physio", patient: "p1").isEmpty)
        // After resolution the same key may be raised again: a new alert.
        let again = try s.alerts.apply(Self.raise([Self.silentPhone], at: Self.t0.addingTimeInterval(10_000)))
        #expect(again.count == 1 && again.first?.alertID != silentID)
    }

    /// `membersOnly` lists a team's alerts about its patients now: a patient taken off the team leaves the list (the
    /// alerts stay, listed by patient), and is back in it after joining again.
    @Test(arguments: ContractAlertStores.all)
    func membersOnlyListsTheTeamsPatientsNow(stores: ContractAlertStores) throws {
        let s = try stores.make()
        for patient in ["p1", "p2"] { try s.access.createPatient(PatientRecord(id: patient, timeZone: "UTC", createdAt: Self.t0)) }
        try s.access.createCareTeam(name: "physio", now: Self.t0)
        for patient in ["p1", "p2"] { try s.access.addPatient(patient, toCareTeam: "physio") }
        let a = try s.alerts.apply(Self.raise([Self.silentPhone], at: Self.t0))
        let b = try s.alerts.apply(Self.raise([Self.silentPhone], patient: "p2", at: Self.t0.addingTimeInterval(10)))
        let members = AlertQuery(careTeam: "physio", membersOnly: true)
        #expect(try s.alerts.alerts(members).map(\.id) == [b[0].alertID, a[0].alertID])
        #expect(try s.access.removePatient("p1", fromCareTeam: "physio", at: Date()))
        #expect(try s.alerts.alerts(members).map(\.id) == [b[0].alertID])
        #expect(try s.alerts.alerts(AlertQuery(careTeam: "physio")).count == 2, "without membersOnly: every alert of the team")
        #expect(try s.alerts.alerts(AlertQuery(patient: "p1")).map(\.id) == [a[0].alertID])
        try s.access.addPatient("p1", toCareTeam: "physio")
        #expect(try s.alerts.alerts(members).count == 2)
    }

    @Test(arguments: ContractAlertStores.all)
    func listedByTeamPatientAndStateNewestFirst(stores: ContractAlertStores) throws {
        let s = try stores.make()
        let a = try s.alerts.apply(Self.raise([Self.silentPhone], at: Self.t0))
        let b = try s.alerts.apply(Self.raise([Self.silentPhone], patient: "p2", at: Self.t0.addingTimeInterval(10)))
        let c = try s.alerts.apply(Self.raise([Self.silentPhone], team: "cardio", at: Self.t0.addingTimeInterval(20)))
        _ = try s.alerts.acknowledge(id: b[0].alertID, by: "tok_t1", at: Self.t0.addingTimeInterval(30))
        #expect(try s.alerts.alerts(AlertQuery(careTeam: "physio")).map(\.id) == [b[0].alertID, a[0].alertID])
        #expect(try s.alerts.alerts(AlertQuery(careTeam: "physio", state: .open)).map(\.id) == [a[0].alertID])
        #expect(try s.alerts.alerts(AlertQuery(careTeam: "physio", state: .acknowledged)).map(\.id) == [b[0].alertID])
        #expect(try s.alerts.alerts(AlertQuery(patient: "p1")).map(\.id) == [c[0].alertID, a[0].alertID])
        #expect(try s.alerts.alerts(AlertQuery(limit: 1)).map(\.id) == [c[0].alertID])
        let stored = try #require(try s.alerts.alert(id: a[0].alertID))
        #expect(stored.key == Self.silentPhone && stored.raisedAt == Self.t0 && stored.careTeam == "physio" && stored.patient == "p1")
    }

    @Test(arguments: ContractAlertStores.all)
    func alertEventsGoToTheOutboxOnlyForSubscribersAndNeverCoalesce(stores: ContractAlertStores) throws {
        let s = try stores.make()
        for id in ["p1", "p2"] { try s.access.createPatient(PatientRecord(id: id, timeZone: "UTC", createdAt: Self.t0)) }
        try s.access.createCareTeam(name: "physio", now: Self.t0)
        try s.access.addPatient("p1", toCareTeam: "physio")
        // Nothing is recorded while no subscription exists.
        _ = try s.alerts.apply(Self.raise([AlertKey(rule: .walkTestDrop, subject: "sixMinuteWalkTestDistance")]))
        #expect(try s.sync.outbox(after: 0, limit: 10).isEmpty)
        func subscribe(_ id: String, _ events: [String]) throws {
            try s.webhooks.createSubscription(WebhookSubscription(id: id, url: "https://clinic.example/\(id)", patients: [], careTeams: ["physio"],
                                                                  events: events, secret: "whsec_\(id)", createdAt: Self.t0))
        }
        try subscribe("wh_alerts", [WebhookSubscription.alertRaised, WebhookSubscription.alertResolved])
        try subscribe("wh_changes", [WebhookSubscription.patientChanged])
        try subscribe("wh_raised", [WebhookSubscription.alertRaised])
        let raised = try s.alerts.apply(Self.raise([Self.silentPhone, AlertKey(rule: .deviceSilent, subject: "org.example.watch")]))
        let resolved = try s.alerts.resolve(id: raised[0].alertID, by: "tok_t1", at: Self.t0.addingTimeInterval(60))
        #expect(resolved != nil)
        _ = try s.webhooks.fanOut(limit: 100, maxPending: 100, now: Self.t0)
        let heads = try s.webhooks.heads()
        #expect(!heads.contains { $0.subscriptionID == "wh_changes" })
        var delivered: [WebhookDelivery] = []
        while let head = try s.webhooks.heads().first(where: { $0.subscriptionID == "wh_alerts" }) {
            delivered.append(head)
            try s.webhooks.record(WebhookAttempt(subscriptionID: head.subscriptionID, sequence: head.sequence, time: Self.t0, status: 204,
                                                 error: nil, outcome: .delivered))
        }
        #expect(delivered.map(\.event) == ["alert.raised", "alert.raised", "alert.resolved"])
        #expect(delivered.map(\.sequence) == [1, 2, 3])
        #expect(delivered.map { $0.alert?.id } == [raised[0].alertID, raised[1].alertID, raised[0].alertID])
        #expect(delivered.allSatisfy { $0.patient == "p1" && $0.alert?.rule == "deviceSilent" && $0.alert?.careTeam == "physio" && $0.anchor.isEmpty })
        #expect(delivered.last?.eventTime == Self.t0.addingTimeInterval(60))
        #expect(try s.webhooks.subscription(id: "wh_raised")?.pendingDeliveries == 2)
    }
}
