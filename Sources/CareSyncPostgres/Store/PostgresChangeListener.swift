import CareSyncCore
import Foundation
import Synchronization

/// Wakes this process's long polls and streams when another instance commits a change: every write
/// transaction that changed a patient's feed sends `NOTIFY` on the store's channel (delivered at commit,
/// never for a rollback) with `<instance> <patient>` as payload, and this listener signals the store's
/// `ChangeNotifier` for each one from another instance. Its own commits the store signals itself, at once.
/// A token's revocation sends `revoke <token id>` (`PostgresAccessStore.revokeToken`): every instance then
/// interrupts that token's waits (`ChangeNotifier.interrupt`), so its long polls and streams end everywhere. An
/// erasure sends `erase <patient id>` (`PostgresErasureStore`): every instance forgets what it kept of the patient
/// (`ChangeNotifier.erased`), so a reach proven before the erasure lets no request through after it; taking a patient
/// off a care team sends `reach <patient id>` (`PostgresAccessStore.removePatient`): every instance forgets the reach
/// it proved to the patient and ends the waits it held (`ChangeNotifier.reachEnded`). After each (re)connection, what
/// was kept of every patient is forgotten, as an erasure or a removal may have been missed meanwhile.
///
/// One connection on a thread of its own waits for notifications. When the connection breaks (a
/// restart, a failover) it reconnects every second until it can `LISTEN` again; a notification sent
/// while it was away is lost, so a long poll waiting then answers at its deadline instead of at once —
/// late, never wrong: it reads the feed again either way.
final class PostgresChangeListener: Sendable {
    /// The channel of a store: one per store identity, so stores sharing a server never wake each other.
    static func channel(storeID: String) -> String { "caresync_\(storeID)" }

    /// This instance's name in payloads: random, so its own notifications are told apart.
    let instance = UUID().uuidString
    private let stopped = Flag()

    /// The payload announcing a change of `patient` by this instance.
    func payload(patient: String) -> String { "\(instance) \(patient)" }

    /// The payload announcing that `token` was revoked (no instance sends `revoke` as its name: names are UUIDs).
    static func revocationPayload(token: String) -> String { revocationPrefix + token }
    private static let revocationPrefix = "revoke "
    /// The payload announcing that `patient` was erased.
    static func erasurePayload(patient: String) -> String { erasurePrefix + patient }
    private static let erasurePrefix = "erase "
    /// The payload announcing that a patient was taken off a care team.
    static func reachPayload(patient: String) -> String { reachPrefix + patient }
    private static let reachPrefix = "reach "
    /// How an instance of the version before announced an erasure: a revocation of this name (rolling upgrades).
    private static let earlierErasurePrefix = "erased-patient "

    /// Starts listening on `channel` with a connection of `configuration`.
    init(configuration: PostgresDatabase.Configuration, channel: String, notifier: ChangeNotifier) {
        let (stopped, instance) = (self.stopped, self.instance)
        let thread = Thread {
            Self.run(configuration: configuration, channel: channel, instance: instance, notifier: notifier, stopped: stopped)
        }
        thread.name = "caresync.postgres.listen"
        thread.start()
    }

    /// Ends the thread within a second (and closes its connection).
    func stop() { stopped.set() }

    private static func run(configuration: PostgresDatabase.Configuration, channel: String, instance: String,
                            notifier: ChangeNotifier, stopped: Flag) {
        while !stopped.isSet {
            do {
                let db = try PostgresDatabase.open(configuration)
                try db.execute("LISTEN \(PostgresDatabase.quoteIdentifier(channel))")
                // An erasure or a removal announced while this connection was away was missed: forget what was kept of
                // everyone.
                notifier.erased(nil)
                while !stopped.isSet {
                    for payload in try db.notifications(waitingUpTo: .seconds(1)) {
                        if payload.hasPrefix(erasurePrefix) {
                            notifier.erased(String(payload.dropFirst(erasurePrefix.count)))
                            continue
                        }
                        if payload.hasPrefix(reachPrefix) {
                            notifier.reachEnded(String(payload.dropFirst(reachPrefix.count)))
                            continue
                        }
                        if payload.hasPrefix(revocationPrefix) {
                            let name = payload.dropFirst(revocationPrefix.count)
                            if name.hasPrefix(earlierErasurePrefix) {
                                notifier.erased(String(name.dropFirst(earlierErasurePrefix.count)))
                            } else {
                                notifier.interrupt(String(name))
                            }
                            continue
                        }
                        guard let space = payload.firstIndex(of: " "), payload[..<space] != instance else { continue }
                        notifier.signal(String(payload[payload.index(after: space)...]))
                    }
                }
            } catch {
                if !stopped.isSet { sleep(1) }
            }
        }
    }

    /// A stop flag shared with the thread.
    private final class Flag: Sendable {
        private let value = Atomic<Bool>(false)
        var isSet: Bool { value.load(ordering: .relaxed) }
        func set() { value.store(true, ordering: .relaxed) }
    }
}
