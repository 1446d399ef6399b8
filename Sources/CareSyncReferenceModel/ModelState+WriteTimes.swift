import CareSyncCore
import Foundation

/// One commit of the model: the highest position it committed and its time in milliseconds (`WriteTimes`).
struct CommitTime: Sendable, Hashable {
    /// The highest change-log sequence of the commit.
    var position: Int64
    /// When it committed, milliseconds since 1970.
    var milliseconds: Int64
}

extension ModelState {
    /// Records the commit of a transaction that advanced the log past `before`: the head and its stamp.
    mutating func recordCommit(after before: Int64, latestNow: Date?) {
        guard head > before else { return }
        commitTimes.append(CommitTime(position: head,
                                      milliseconds: WriteTimes.stamp(latestNow: latestNow, previous: commitTimes.last?.milliseconds)))
    }

    /// The highest position committed before `instant` (0: none); a sub-millisecond instant counts from its next millisecond.
    func position(committedBefore instant: Date) -> Int64 {
        let limit = Int64((instant.timeIntervalSince1970 * 1000).rounded(.up))
        var low = 0, high = commitTimes.count
        while low < high {
            let mid = (low + high) / 2
            if commitTimes[mid].milliseconds < limit { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? 0 : commitTimes[low - 1].position
    }

    /// The time of the first commit at or after `position`; nil for 0 or past the last commit.
    func writeTime(of position: Int64) -> Date? {
        guard position > 0 else { return nil }
        var low = 0, high = commitTimes.count
        while low < high {
            let mid = (low + high) / 2
            if commitTimes[mid].position < position { low = mid + 1 } else { high = mid }
        }
        return low < commitTimes.count ? SyncRules.date(milliseconds: commitTimes[low].milliseconds) : nil
    }

    /// Forgets the commits below the last one at or below the purge horizon that no live sample was written in (their
    /// changes are gone); the last one stays, so an instant after it still maps to the horizon.
    mutating func pruneCommitTimes() {
        let written = live.values.map(\.sequence).sorted()
        let last = commitTimes.last { $0.position <= purgeHorizon }?.position ?? 0
        var previous: Int64 = 0
        commitTimes = commitTimes.filter { commit in
            defer { previous = commit.position }
            guard commit.position < last else { return true }
            var low = 0, high = written.count
            while low < high {
                let mid = (low + high) / 2
                if written[mid] <= previous { low = mid + 1 } else { high = mid }
            }
            return low < written.count && written[low] <= commit.position
        }
    }
}
