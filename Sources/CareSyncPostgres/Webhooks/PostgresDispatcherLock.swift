import Foundation
import Synchronization

/// One webhook dispatcher per database: a session advisory lock on a connection of its own. PostgreSQL releases it
/// when that session ends, so when the holding instance dies (even by SIGKILL: the server sees the socket close)
/// another takes over at its next try. A holder whose connection broke has lost the lock and tries again.
final class PostgresDispatcherLock: Sendable {
    private let configuration: PostgresDatabase.Configuration
    private let key: String
    private let session = Mutex<Session?>(nil)

    /// The lock named `key` (per store identity: stores sharing a server never exclude each other).
    init(configuration: PostgresDatabase.Configuration, key: String) {
        self.configuration = configuration; self.key = key
    }

    /// True while this instance holds the lock (checking its connection still lives); else tries to take it.
    func acquire() throws -> Bool {
        try session.withLock { session in
            if let held = session, held.holds {
                if (try? held.connection.query("SELECT 1")) != nil, !held.connection.isBroken { return true }
                session = nil
            }
            if session == nil || session!.connection.isBroken {
                session = Session(connection: try PostgresDatabase.open(configuration), holds: false)
            }
            let taken = try session!.connection.query("SELECT pg_try_advisory_lock(hashtextextended($1, 0))", [.text(key)])
                .first { try $0.bool(0) } ?? false
            session!.holds = taken
            return taken
        }
    }

    /// The lock's connection and whether it holds the lock. @unchecked: only touched under the mutex.
    private struct Session: @unchecked Sendable {
        let connection: PostgresConnection
        var holds: Bool
    }
}
