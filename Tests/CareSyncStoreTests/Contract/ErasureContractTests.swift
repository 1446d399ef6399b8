import CareSyncCore
import CareSyncPostgres
import CareSyncReferenceModel
import CareSyncStore
import Foundation
import Testing

/// Every store of one "database" an erasure touches: sync, access, monitoring, webhooks and the erasure itself.
struct ContractErasureStores: Sendable, CustomStringConvertible {
    /// The stores of one database.
    struct Stores {
        let sync: any SyncStore, access: any AccessStore, monitoring: any MonitoringStore
        let webhooks: any WebhookStore, erasure: any ErasureStore, exports: any BulkExportStore
    }
    /// Shown in test names.
    let name: String
    /// Makes fresh, empty stores.
    let make: @Sendable () throws -> Stores
    var description: String { name }

    /// The reference model, SQLite, and PostgreSQL when `CARESYNC_TEST_POSTGRES_URL` is set.
    static let all: [ContractErasureStores] = [
        ContractErasureStores(name: "InMemorySyncStore") {
            let access = InMemoryAccessStore(), monitoring = InMemoryMonitoringStore()
            let sync = InMemorySyncStore(access: access)
            let webhooks = InMemoryWebhookStore(sync: sync, access: access), exports = InstanceBulkExportStore()
            return Stores(sync: sync, access: access, monitoring: monitoring, webhooks: webhooks,
                          erasure: InMemoryErasureStore(sync: sync, access: access, monitoring: monitoring, webhooks: webhooks,
                                                        exports: exports),
                          exports: exports)
        },
        ContractErasureStores(name: "SQLiteSyncStore") {
            let store = try StoreFixture.make().store, db = store.database
            return Stores(sync: store, access: SQLiteAccessStore(database: db), monitoring: SQLiteMonitoringStore(database: db),
                          webhooks: SQLiteWebhookStore(database: db), erasure: SQLiteErasureStore(database: db),
                          exports: SQLiteBulkExportStore(database: db))
        },
    ] + (PostgresFixture.isAvailable ? [ContractErasureStores(name: "PostgresSyncStore") {
        let store = try PostgresFixture.makeStore(), db = store.database
        return Stores(sync: store, access: PostgresAccessStore(database: db), monitoring: PostgresMonitoringStore(database: db),
                      webhooks: PostgresWebhookStore(store: store), erasure: PostgresErasureStore(database: db),
                      exports: PostgresBulkExportStore(database: db))
    }] : [])
}

/// An erasure on every store: the patient's rows of every kind counted and gone, the id never reused, the receipt in
/// the audit log with counts only, and another patient's data exactly as it was.
struct ErasureContractTests {
    static let now = Contract.t0
    static func day(_ text: String) -> CalendarDay { CalendarDay(parsing: text)! }

    /// Two patients with the same kinds of data: samples (one replaced, one deleted), a report, a keyed write, goals,
    /// minutes, an episode, a care team and a departure from another, a device token each, and webhook deliveries of both.
    static func populate(_ s: ContractErasureStores.Stores) async throws {
        try s.access.createCareTeam(name: "team", now: now)
        try s.access.createCareTeam(name: "former", now: now)
        try s.webhooks.createSubscription(WebhookSubscription(id: "wh_0000000000000001", url: "https://clinic.example/h",
            patients: [], careTeams: [], events: [WebhookSubscription.patientChanged], secret: "whsec_x", createdAt: now))
        for (i, patient) in ["erased", "kept"].enumerated() {
            try s.access.createPatient(PatientRecord(id: patient, timeZone: "UTC", createdAt: now))
            try s.access.addPatient(patient, toCareTeam: "team")
            try s.access.addPatient(patient, toCareTeam: "former")
            #expect(try s.access.removePatient(patient, fromCareTeam: "former", at: now))
            try s.access.insertToken(TokenRecord(id: "tok-\(patient)", secretHash: Array(repeating: UInt8(i), count: 32), role: .device,
                patient: patient, careTeams: [], source: "src-\(patient)", readTypes: nil, writeTypes: nil, createdAt: now, expiresAt: nil))
            let samples = (0..<3).map { n in
                Contract.makeInput(value: 1000 + Double(n) + 0.125, start: now.addingTimeInterval(Double(n) * Contract.hour),
                                   syncIdentifier: "s\(n)", syncVersion: 1, metadata: ["note": .string("\(patient)-\(n)")])
            }
            let stored = try s.sync.upsert(samples, patient: patient, source: "src-\(patient)", now: now)
            _ = try s.sync.upsert([Contract.makeInput(value: 2000.5, syncIdentifier: "s0", syncVersion: 2)], patient: patient,
                                  source: "src-\(patient)", now: now)
            _ = try s.sync.delete(uuids: [], syncIdentifiers: ["s1"], patient: patient, source: "src-\(patient)", now: now)
            #expect(stored.results.count == 3)
            _ = try s.sync.upsertReport(Contract.makeReport(version: 1, walks: [(16, 420.5)]), patient: patient, source: "therapist", now: now)
            let claim = IdempotencyClaim(key: IdempotencyKey(scope: "therapist-token", key: "k-\(patient)"), requestHash: [1],
                                         now: now, lifetime: 3600, patient: patient)
            try await keyedWrite(s.sync, claim: claim, patient: patient)
            try s.monitoring.setGoal(PatientGoal(patient: patient, kind: .dailySteps, target: 7777.25, setBy: "t", setAt: now))
            _ = try s.monitoring.logMinutes(ReviewMinutes(patient: patient, day: day("2020-06-18"), minutes: 12, category: .dataReview, loggedBy: "t", loggedAt: now))
            _ = try s.monitoring.logMinutes(ReviewMinutes(patient: patient, day: day("2020-06-19"), minutes: 5, category: .dataReview, loggedBy: "t", loggedAt: now))
            _ = try s.monitoring.startEpisode(MonitoringEpisode(patient: patient, startDay: day("2020-06-01"), startedBy: "t", startedAt: now))
        }
        _ = try s.webhooks.fanOut(limit: 1000, maxPending: 1000, now: now)
    }

    /// A keyed write of one sample through `write(idempotency:)`, as the API makes it.
    static func keyedWrite(_ sync: any SyncStore, claim: IdempotencyClaim, patient: String) async throws {
        let result = try await sync.write(idempotency: claim) { w in
            _ = try w.upsert([Contract.makeInput(value: 3000.75, syncIdentifier: "keyed", syncVersion: 1)], patient: patient,
                             source: "therapist", now: now)
            return WriteAnswer(value: true, status: 200, response: Array("{\"value\":3000.75}".utf8))
        }
        guard case .performed = result else { Issue.record("the keyed write did not run"); return }
    }

    @Test(arguments: ContractErasureStores.all)
    func erasureRemovesEveryKindAndKeepsTheOtherPatient(stores: ContractErasureStores) async throws {
        let s = try stores.make()
        try await Self.populate(s)
        let keptFeed = try Contract.readAll(s.sync, patient: "kept")
        let keptChecksums = try s.sync.checksums(patient: "kept", at: nil).types
        let keptGoals = try s.monitoring.goals(patient: "kept")

        let request = ErasureRequest(patient: "erased", tokenID: "admin-token", time: Self.now.addingTimeInterval(60))
        let receipt = try #require(try s.erasure.erase(request))
        // 4 stored (3 + the keyed one) + 1 report walk − 1 replaced − 1 deleted + 1 replacement = 4 live; 2 tombstones.
        let expected = ["samples": 4, "tombstones": 2, "reports": 1, "idempotencyRecords": 1, "monitoringEpisodes": 1,
                        "reviewMinutes": 2, "goals": 1, "careTeamMemberships": 1, "careTeamDepartures": 1, "tokens": 1, "patient": 1]
        for (kind, count) in expected { #expect(receipt.count(of: kind) == count, "\(kind)") }
        #expect(receipt.count(of: "webhookDeliveries") + receipt.count(of: "webhookOutbox") >= 1)
        #expect(receipt.tokenIDs == ["tok-erased"])

        // Nothing of the patient is left to read.
        #expect(try s.access.patient(id: "erased") == nil)
        #expect(try s.access.token(id: "tok-erased") == nil)
        #expect(try s.access.careTeams().first { $0.name == "team" }?.patients == ["kept"])
        #expect(try s.access.careTeamDepartures("former") == ["kept": Self.now], "the other patient's departure stays")
        let feed = try Contract.readAll(s.sync, patient: "erased")
        #expect(feed.samples.isEmpty && feed.deletedObjects.isEmpty)
        #expect(try s.sync.checksums(patient: "erased", at: nil).types.isEmpty)
        #expect(try s.sync.report(patient: "erased", syncIdentifier: "report-2020-W25", source: "therapist") == nil)
        #expect(try s.monitoring.goals(patient: "erased").isEmpty && s.monitoring.episodes(patient: "erased").isEmpty)
        #expect(try s.monitoring.minutes(patient: "erased", from: Self.day("2020-01-01"), through: Self.day("2020-12-31")).isEmpty)
        #expect(try s.webhooks.heads().allSatisfy { $0.patient != "erased" })
        #expect(try s.erasure.wasErased("erased") && !s.erasure.wasErased("kept"))

        // The other patient: exactly as before.
        let after = try Contract.readAll(s.sync, patient: "kept")
        #expect(after.samples == keptFeed.samples && after.deletedObjects == keptFeed.deletedObjects)
        #expect(try s.sync.checksums(patient: "kept", at: nil).types == keptChecksums)
        #expect(try s.monitoring.goals(patient: "kept") == keptGoals)
        #expect(try s.access.token(id: "tok-kept") != nil)

        // The receipt: counts by kind, the caller and the time; no value.
        let audit = try s.access.audit(AuditQuery(patient: "erased", limit: 100)).filter { $0.action.hasPrefix(ErasureReceipt.action) }
        #expect(Set(audit.map(\.action)) == Set(receipt.auditRecords.map(\.action)))
        #expect(audit.first { $0.action == "patient.erase" }?.count == receipt.total)
        #expect(audit.first { $0.action == "patient.erase.samples" }?.count == 4)
        #expect(audit.allSatisfy { $0.tokenID == "admin-token" && $0.role == .admin && $0.status == 200 && $0.time == request.time })
    }

    /// Nothing is written under an erased id again, whatever reach its caller proved before the erasure (a request in
    /// flight, another instance's cache, a server beside the command line's erasure): samples, deletions, a report, a
    /// keyed write with its audit record, a goal, review minutes and an episode are refused, and leave no row, no change
    /// and no record.
    @Test(arguments: ContractErasureStores.all)
    func writesUnderAnErasedIdAreRefusedAndStoreNothing(stores: ContractErasureStores) async throws {
        let s = try stores.make()
        try await Self.populate(s)
        _ = try #require(try s.erasure.erase(ErasureRequest(patient: "erased", tokenID: "admin-token", time: Self.now)))
        let head = try s.sync.currentAnchor()
        let records = try s.access.audit(AuditQuery(limit: 1000)).count
        let late = Contract.makeInput(value: 4000.25, syncIdentifier: "late", syncVersion: 1)
        #expect(throws: ErasedPatientWrite(patient: "erased")) { try s.sync.upsert([late], patient: "erased", source: "src-erased", now: Self.now) }
        #expect(throws: ErasedPatientWrite(patient: "erased")) {
            try s.sync.delete(uuids: [UUID()], syncIdentifiers: ["s0"], patient: "erased", source: "src-erased", now: Self.now)
        }
        #expect(throws: ErasedPatientWrite(patient: "erased")) {
            try s.sync.upsertReport(Contract.makeReport(version: 3, walks: [(16, 430.5)]), patient: "erased", source: "therapist", now: Self.now)
        }
        let claim = IdempotencyClaim(key: IdempotencyKey(scope: "therapist-token", key: "late"), requestHash: [2],
                                     now: Self.now, lifetime: 3600, patient: "erased")
        await #expect(throws: ErasedPatientWrite(patient: "erased")) {
            _ = try await s.sync.write(idempotency: claim) { w in
                try w.appendAudit(AuditRecord(time: Self.now, tokenID: "therapist-token", role: .therapist, patient: "erased",
                                              action: "samples.write", count: 1, status: 200))
                _ = try w.upsert([late], patient: "erased", source: "therapist", now: Self.now)
                return WriteAnswer(value: true, status: 200, response: Array("{}".utf8))
            }
        }
        // The other patient-keyed writes: a goal, review minutes, a monitoring episode.
        #expect(throws: ErasedPatientWrite(patient: "erased")) {
            try s.monitoring.setGoal(PatientGoal(patient: "erased", kind: .dailySteps, target: 5000, setBy: "t", setAt: Self.now))
        }
        #expect(throws: ErasedPatientWrite(patient: "erased")) {
            try s.monitoring.logMinutes(ReviewMinutes(patient: "erased", day: Self.day("2020-06-20"), minutes: 3, category: .dataReview,
                                                      loggedBy: "t", loggedAt: Self.now))
        }
        #expect(throws: ErasedPatientWrite(patient: "erased")) {
            try s.monitoring.startEpisode(MonitoringEpisode(patient: "erased", startDay: Self.day("2020-07-01"), startedBy: "t", startedAt: Self.now))
        }
        #expect(try s.monitoring.goals(patient: "erased").isEmpty && s.monitoring.episodes(patient: "erased").isEmpty)
        #expect(try s.monitoring.minutes(patient: "erased", from: Self.day("2020-01-01"), through: Self.day("2020-12-31")).isEmpty)
        #expect(try s.sync.currentAnchor() == head)
        let feed = try Contract.readAll(s.sync, patient: "erased")
        #expect(feed.samples.isEmpty && feed.deletedObjects.isEmpty)
        #expect(try s.sync.checksums(patient: "erased", at: nil).types.isEmpty)
        #expect(try s.access.audit(AuditQuery(limit: 1000)).count == records)
        // The other patient writes as before.
        let kept = try s.sync.upsert([late], patient: "kept", source: "src-kept", now: Self.now)
        #expect(kept.results.map(\.outcome) == [.inserted])
    }

    @Test(arguments: ContractErasureStores.all)
    func anErasedIdIsNeverReusedAndAnUnknownOneChangesNothing(stores: ContractErasureStores) throws {
        let s = try stores.make()
        try s.access.createPatient(PatientRecord(id: "p", timeZone: "UTC", createdAt: Self.now))
        #expect(try s.erasure.erase(ErasureRequest(patient: "nobody", tokenID: "a", time: Self.now)) == nil)
        #expect(try s.access.audit(AuditQuery(limit: 100)).isEmpty)
        #expect(try s.erasure.erase(ErasureRequest(patient: "p", tokenID: "a", time: Self.now)) != nil)
        #expect(throws: AccessStoreError.erased("patient p")) {
            try s.access.createPatient(PatientRecord(id: "p", timeZone: "UTC", createdAt: Self.now))
        }
        #expect(try s.access.patient(id: "p") == nil)
        #expect(try s.erasure.erase(ErasureRequest(patient: "p", tokenID: "a", time: Self.now)) == nil)
        #expect(throws: AccessStoreError.missing("patient p")) { try s.access.addPatient("p", toCareTeam: "none") }
    }
}
