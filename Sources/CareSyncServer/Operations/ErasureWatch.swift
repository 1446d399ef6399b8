import CareSyncCore
import CareSyncLocking

/// Notices erasures nobody told this instance of, such as `caresync patient erase` run in another process on the same
/// SQLite file: each `look` reads how many ids were erased, and when that number grew since the last look, the
/// notifier's `erased(nil)` makes this instance forget every reach it proved and every page it read ahead, so the
/// erased patient's paths answer 404 here too. The server looks every 5 s on SQLite (a `PeriodicJob`). The API's
/// erasure tells its own instance at once, and PostgreSQL's tells the others through their listeners: this is the
/// rest.
final class ErasureWatch: Sendable {
    private let erasure: any ErasureStore
    private let notifier: ChangeNotifier
    private let seen = Locked<Int?>(nil)

    /// A watch of `erasure`'s count, telling `notifier`.
    init(erasure: any ErasureStore, notifier: ChangeNotifier) {
        self.erasure = erasure; self.notifier = notifier
    }

    /// Reads the count once; answers whether it grew since the last look (then every reach was forgotten). The first
    /// look only notes it.
    @discardableResult
    func look() throws -> Bool {
        let count = try erasure.erasedCount()
        let previous = seen.withLock { seen in defer { seen = count }; return seen }
        guard let previous, count > previous else { return false }
        notifier.erased(nil)
        return true
    }
}
