import CareSyncCore
import CareSyncTestSupport
import Foundation
import Testing
@testable import CareSyncServer

/// The alert evaluation with two servers on one PostgreSQL database: only the instance holding the `alerts` lease
/// evaluates (the other skips every run, scheduled or after a commit), and each alert is raised once for the database.
/// Runs when `CARESYNC_TEST_POSTGRES_URL` names a server (scripts/ci-postgres.sh), skipped otherwise.
@Suite(.enabled(if: postgresTestServerURL != nil, "CARESYNC_TEST_POSTGRES_URL names no server"))
struct AlertJobServerTests {
    @Test func onlyTheLeaseHolderEvaluates() async throws {
        try await TwoInstances.with { servers in
            let clock = ManualClock()
            let (holder, other) = try servers.holderAndOther(of: .alerts)
            let (holding, idle) = (holder.makeAlertJob(clock: clock), other.makeAlertJob(clock: clock))
            // The other instance first: were it to evaluate, the holder would find the alerts raised already.
            #expect(try idle.runAll() == nil)
            #expect(try idle.runChanged() == nil)
            #expect(try other.backend.alerts.alerts(AlertQuery()).isEmpty)
            let raised = try #require(try holding.runAll())
            // alice's phone and bob's phone never wrote: two silent sources, one alert each (alice's revoked and expired
            // tokens are expected nothing).
            #expect(raised.count == 2 && raised.allSatisfy { $0.kind == .raised && $0.rule == .deviceSilent }, "\(raised)")
            clock.advance(by: 3600)
            #expect(try idle.runAll() == nil)
            #expect(try holding.runAll()?.isEmpty == true)
            // Both instances read the one database: the alerts, once each.
            for app in [holder, other] {
                let all = try app.backend.alerts.alerts(AlertQuery())
                #expect(all.count == 2 && Set(all.map { "\($0.careTeam)/\($0.patient)/\($0.key.subject)" }).count == 2)
            }
            // A commit through the other instance reaches the holder (LISTEN/NOTIFY) and is evaluated there only.
            #expect(try await servers.send(servers.one.app === other ? 1 : 2, "POST", "/v1/patients/bob/samples", token: servers.tokens.bobDevice,
                                           json: ["samples": [Fixtures.steps(3)]]).status == 200)
            try await Eventually.until { holder.alertJob.pendingPatients.contains("bob") }
            #expect(try other.alertJob.runChanged() == nil)
            let events = try #require(try holder.alertJob.runChanged())
            // bob's device has just written: its silence alert resolves, at the holder only.
            #expect(events.map(\.kind) == [.resolved] && events.map(\.patient) == ["bob"], "\(events)")
        }
    }
}
