import CareSyncCore
import Foundation
import CareSyncLocking

/// The store's job leases (`JobLeases`): one session advisory lock per job, keyed by the store id and the job, all
/// on one connection of their own. PostgreSQL releases them when that session ends, so when the holding instance
/// dies (even by SIGKILL: the server sees the socket close) or its store closes, another instance takes each lease
/// at its next ask. A holder whose connection broke has lost all its leases and asks again like any other.
final class PostgresJobLeases: Sendable {
    /// The server's TCP keepalives on the leases' session (idle 10 s, 3 probes 5 s apart), so a holder whose host
    /// vanished without closing its socket loses its leases within about 25 s, not the system's two hours.
    static let keepalives = "SET tcp_keepalives_idle = 10; SET tcp_keepalives_interval = 5; SET tcp_keepalives_count = 3"

    private let configuration: PostgresDatabase.Configuration
    private let storeID: String
    private let session = Locked<Session?>(nil)

    /// The leases of the store `storeID` (stores sharing a server never exclude each other).
    init(configuration: PostgresDatabase.Configuration, storeID: String) {
        self.configuration = configuration; self.storeID = storeID
    }

    /// The advisory lock's name for `job`: `caresync.<job>.<store id>` (the webhooks one is the former dispatcher lock's).
    static func key(_ job: LeasedJob, storeID: String) -> String { "caresync.\(job.name).\(storeID)" }

    /// True while this instance holds `job`'s lease (checking its connection still lives); else tries to take it.
    func acquire(_ job: LeasedJob) throws -> Bool {
        try session.withLock { session in
            if let current = session, current.jobs.contains(job) {
                if (try? current.connection.query("SELECT 1")) != nil, !current.connection.isBroken { return true }
                session = nil  // the session ended, and every lease with it
            }
            if session == nil || session!.connection.isBroken {
                let connection = try PostgresDatabase.open(configuration)
                try connection.execute(Self.keepalives)
                session = Session(connection: connection)
            }
            let taken = try session!.connection.query("SELECT pg_try_advisory_lock(hashtextextended($1, 0))",
                                                      [.text(Self.key(job, storeID: storeID))]).first { try $0.bool(0) } ?? false
            if taken { session!.jobs.insert(job) }
            return taken
        }
    }

    /// The leases' connection and the jobs it holds; only the mutex reaches it.
    private struct Session {
        let connection: PostgresConnection
        var jobs: Set<LeasedJob> = []
    }
}
