import CareSyncBackends
import CareSyncCore
import Testing
@testable import CareSyncServer

extension TestServer {
    /// A `ReachWatch` of this server (its baseline taken), the physio therapist's reach to alice proven through it, and
    /// the stores as the command line opens them beside it: what another process on the same SQLite file changes.
    func reachWatchBesideTheCommandLine() async throws -> (watch: ReachWatch, commandLine: any StoreBackend) {
        let watch = ReachWatch(erasure: app.backend.erasure, access: app.backend.access, notifier: app.api.store.notifier)
        #expect(try watch.look() == .nothing)  // the baseline
        #expect(try await send("GET", "/v1/patients/alice/changes", token: tokens.therapist).status == 200)
        return (watch, try StoreBackends.open(app.configuration.storeSettings))
    }

    /// The watch's next look notices `noticed`, after which the therapist's read of alice is 404; the look after notices
    /// nothing.
    func expectReachEnded(by watch: ReachWatch, noticing noticed: ReachWatch.Noticed) async throws {
        #expect(try watch.look() == noticed)
        try await send("GET", "/v1/patients/alice/changes", token: tokens.therapist).expectProblem(404, "notFound")
        #expect(try watch.look() == .nothing)
    }
}
