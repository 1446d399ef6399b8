import CareSyncCore
import CareSyncLocking

/// Notices erasures and removals from care teams nobody told this instance of, such as `caresync patient erase` or
/// `caresync care-team remove-patient` run in another process on the same SQLite file: each `look` reads how many ids
/// were erased and how many patients left care teams, and when either grew since the last look, the notifier forgets
/// every reach this instance proved and every page it read ahead (`erased(nil)`, `reachEnded(nil)`), so those paths
/// answer 404 here too. The server looks every 5 s on SQLite (a `PeriodicJob`). The API tells its own instance at
/// once, and PostgreSQL's store tells the others through their listeners: this is the rest.
final class ReachWatch: Sendable {
    /// What a look noticed.
    enum Noticed: Equatable, Sendable { case nothing, erasure, removal }

    private let erasure: any ErasureStore
    private let access: any AccessStore
    private let notifier: ChangeNotifier
    private let seen = Locked<(erased: Int, leaves: Int64)?>(nil)

    /// A watch of `erasure`'s and `access`'s counts, telling `notifier`.
    init(erasure: any ErasureStore, access: any AccessStore, notifier: ChangeNotifier) {
        self.erasure = erasure; self.access = access; self.notifier = notifier
    }

    /// Reads both counts once; answers what grew since the last look (an erasure wins: it ends reach too). The first
    /// look only notes them.
    @discardableResult
    func look() throws -> Noticed {
        let now = (erased: try erasure.erasedCount(), leaves: try access.careTeamLeaves())
        let previous = seen.withLock { seen in defer { seen = now }; return seen }
        guard let previous else { return .nothing }
        if now.erased > previous.erased {
            notifier.erased(nil)
            return .erasure
        }
        if now.leaves > previous.leaves {
            notifier.reachEnded(nil)
            return .removal
        }
        return .nothing
    }
}
