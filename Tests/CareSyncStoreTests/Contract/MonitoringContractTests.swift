import CareSyncCore
import CareSyncPostgres
import CareSyncReferenceModel
import CareSyncStore
import Foundation
import Testing

/// The stores of one "database" the monitoring contract runs against: sync, access and monitoring.
struct ContractMonitoringStores: Sendable, CustomStringConvertible {
    /// Shown in test names.
    let name: String
    /// Makes a fresh, empty triple.
    let make: @Sendable () throws -> (sync: any SyncStore, access: any AccessStore, monitoring: any MonitoringStore)
    var description: String { name }

    /// Every implementation: the reference model, SQLite, and PostgreSQL when `CARESYNC_TEST_POSTGRES_URL` is set.
    static let all: [ContractMonitoringStores] = [
        ContractMonitoringStores(name: "InMemorySyncStore") {
            let access = InMemoryAccessStore()
            return (InMemorySyncStore(access: access), access, InMemoryMonitoringStore())
        },
        ContractMonitoringStores(name: "SQLiteSyncStore") {
            let store = try StoreFixture.make().store
            return (store, SQLiteAccessStore(database: store.database), SQLiteMonitoringStore(database: store.database))
        },
    ] + (PostgresFixture.isAvailable ? [ContractMonitoringStores(name: "PostgresSyncStore") {
        let store = try PostgresFixture.makeStore()
        return (store, PostgresAccessStore(database: store.database), PostgresMonitoringStore(database: store.database))
    }] : [])
}

/// Episodes and review minutes on every store: one open episode at a time, no overlap, history kept, minutes by day.
struct MonitoringContractTests {
    static func day(_ text: String) -> CalendarDay { CalendarDay(parsing: text)! }
    static let at = Date(timeIntervalSince1970: 1_600_000_000)

    @Test(arguments: ContractMonitoringStores.all)
    func oneOpenEpisodeAtATimeAndHistoryKept(stores: ContractMonitoringStores) throws {
        let (_, access, monitoring) = try stores.make()
        try access.createPatient(PatientRecord(id: "p1", timeZone: "UTC", createdAt: Self.at))
        try access.createPatient(PatientRecord(id: "p2", timeZone: "UTC", createdAt: Self.at))
        let first = try monitoring.startEpisode(MonitoringEpisode(patient: "p1", startDay: Self.day("2020-06-01"), startedBy: "t1", startedAt: Self.at))
        #expect(first.isOpen && first.id > 0)
        #expect(throws: MonitoringStoreError.openEpisodeExists) {
            try monitoring.startEpisode(MonitoringEpisode(patient: "p1", startDay: Self.day("2020-07-01"), startedBy: "t1", startedAt: Self.at))
        }
        // Another patient's episode is independent.
        _ = try monitoring.startEpisode(MonitoringEpisode(patient: "p2", startDay: Self.day("2020-06-03"), startedBy: "t1", startedAt: Self.at))
        let ended = try monitoring.endEpisode(patient: "p1", endDay: Self.day("2020-06-20"), by: "t2", at: Self.at.addingTimeInterval(60))
        #expect(ended?.id == first.id && ended?.endDay == Self.day("2020-06-20") && ended?.endedBy == "t2")
        #expect(ended?.endedAt == Self.at.addingTimeInterval(60))
        #expect(try monitoring.endEpisode(patient: "p1", endDay: Self.day("2020-06-21"), by: "t2", at: Self.at) == nil)
        #expect(throws: MonitoringStoreError.overlapsEarlierEpisode(Self.day("2020-06-20"))) {
            try monitoring.startEpisode(MonitoringEpisode(patient: "p1", startDay: Self.day("2020-06-20"), startedBy: "t1", startedAt: Self.at))
        }
        let second = try monitoring.startEpisode(MonitoringEpisode(patient: "p1", startDay: Self.day("2020-06-21"), startedBy: "t1", startedAt: Self.at))
        let history = try monitoring.episodes(patient: "p1")
        #expect(history.map(\.id) == [first.id, second.id])
        #expect(history.map(\.isOpen) == [false, true])
        #expect(history[0].startedBy == "t1" && history[0].startedAt == Self.at && history[0].startDay == Self.day("2020-06-01"))
    }

    @Test(arguments: ContractMonitoringStores.all)
    func minutesAreReadByPatientAndDayRange(stores: ContractMonitoringStores) throws {
        let (_, _, monitoring) = try stores.make()
        func log(_ patient: String, _ day: String, _ minutes: Int, _ category: ReviewCategory = .dataReview) throws -> ReviewMinutes {
            try monitoring.logMinutes(ReviewMinutes(patient: patient, day: Self.day(day), minutes: minutes, category: category,
                                                    loggedBy: "t1", loggedAt: Self.at))
        }
        let a = try log("p1", "2020-06-30", 12, .patientCall), b = try log("p1", "2020-06-01", 5), c = try log("p1", "2020-07-01", 20)
        _ = try log("p2", "2020-06-15", 30)
        let d = try log("p1", "2020-06-01", 3, .carePlan)
        let june = try monitoring.minutes(patient: "p1", from: Self.day("2020-06-01"), through: Self.day("2020-06-30"))
        #expect(june.map(\.id) == [b.id, d.id, a.id])
        #expect(june.map(\.minutes) == [5, 3, 12] && june.map(\.category) == [.dataReview, .carePlan, .patientCall])
        #expect(june.allSatisfy { $0.loggedBy == "t1" && $0.loggedAt == Self.at && $0.patient == "p1" })
        #expect(try monitoring.minutes(patient: "p1", from: Self.day("2020-07-01"), through: Self.day("2020-07-31")).map(\.id) == [c.id])
        #expect(MonthlyMinutes.totals(june + [c]).map { "\($0.monthText) \($0.total) \($0.band.rawValue)" } == ["2020-06 20 20to39", "2020-07 20 20to39"])
    }
}
