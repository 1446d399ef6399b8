import CareSyncCore
import CareSyncLocking

/// A feed page as one read gave it to every caller that shared the read, with each small answer written once for
/// all of them: the polls one commit woke get the same page, so they can share its JSON and its sealed anchor.
///
/// Sharing a sealed anchor among the callers of one read tells a caller nothing the page does not: whether two of its
/// requests shared a read depends on their timing and on its own patient's change generation, never on other
/// patients' writes (a later read, even at the same position, is another `SharedPage` with a freshly sealed anchor).
final class SharedPage: Sendable {
    /// The page read.
    let page: ChangeSet
    /// The answers written so far, by the unit asked for (nil: each type's canonical unit).
    private let bodies = Locked([HealthUnit?: [UInt8]]())

    /// A page from one read.
    init(_ page: ChangeSet) { self.page = page }

    /// The body of the answer in `unit`: written by `write` for the first caller, the same bytes for the rest
    /// (two callers racing may both write; the first stored is handed to every later one).
    func body(unit: HealthUnit?, write: (ChangeSet, HealthUnit?) -> [UInt8]) -> [UInt8] {
        if let written = bodies.withLock({ $0[unit] }) { return written }
        let body = write(page, unit)
        return bodies.withLock { written in
            if let first = written[unit] { return first }
            written[unit] = body
            return body
        }
    }
}
