import CareSyncCore
import CareSyncHTTP
import Foundation

extension ChangeReader {
    /// Reads a page; when it is empty and a deadline is given, parks until a commit for the patient or the deadline.
    /// After a wait, the caller's token is read again: revoked or expired meanwhile, the answer is 401, never data; out of
    /// reach meanwhile (taken off the care team, erased), 404. A revocation on this instance (`tag`), the token's expiry
    /// or the end of reach to the patient wakes the wait at once.
    func readChanges(_ query: ChangeQuery, until deadline: ContinuousClock.Instant?, principal: Principal,
                     tag: ChangeNotifier.WaitTag) async throws -> SharedPage {
        // Nothing readable: an empty page at the head at once, never a wait.
        if let types = query.types, types.isEmpty { return try await readSharedPage(query, generation: 0) }
        var generation = notifier.generation(of: query.patient)
        var page = try await readSharedPage(query, generation: generation)
        guard let deadline, page.page.samples.isEmpty, page.page.deletedObjects.isEmpty else { return page }
        guard parkedCount < limits.maxParkedPolls else {
            throw HTTPError.tooManyRequests("Too many long polls are waiting; retry shortly.")
        }
        try enterTokenWait(principal)
        defer { tokenWaits.leave(principal.tokenID) }
        var next = query
        next.anchor = page.page.anchor
        var tag = tag
        while true {
            let left = clock.instant().duration(to: deadline)
            var woke = false
            if left > .zero {
                metrics.longPollParked()
                woke = await notifier.wait(for: query.patient, after: generation, timeout: tokens.parkingTime(principal, limit: left), tag: tag)
                metrics.longPollUnparked()
            }
            tag = notifier.tag(principal.tokenID)
            generation = notifier.generation(of: query.patient)
            if woke {
                // Ended by a commit: the token's re-read is shared with the other waits that commit ended.
                let commit = WakingCommit(patient: query.patient, generation: generation, interrupts: notifier.interruptEpoch)
                try await tokens.requireStillValid(principal, wokenBy: commit)
            } else {
                try await tokens.requireStillValid(principal)
            }
            // Taken off the caller's care team (or erased) meanwhile: 404, never data.
            try await tokens.requireStillInReach(principal, patient: query.patient)
            // Out of time, the client gone, or the server stopping: answer what there is.
            if !woke, clock.instant() >= deadline || Task.isCancelled || streams.isStopping { return page }
            page = try await readSharedPage(next, generation: generation)
            if !page.page.samples.isEmpty || !page.page.deletedObjects.isEmpty { return page }
            next.anchor = page.page.anchor
        }
    }

    /// Takes one of the token's places for a long poll or event stream (give it back with `tokenWaits.leave`);
    /// 429 when it already holds `maxWaitsPerToken`.
    func enterTokenWait(_ principal: Principal) throws {
        guard tokenWaits.enter(principal.tokenID) else {
            metrics.rateLimited(reason: "tokenWaits")
            throw HTTPError.tooManyRequests("This token already holds its most long polls and event streams at once; close one or retry shortly.")
        }
    }

    /// One page after `query.anchor`, read once for every request that observed the same `generation`.
    /// With nothing readable (an empty `types`), an empty page at the head, so the reader skips nothing it
    /// could see; its anchor is still checked (400, 410).
    func readPage(_ query: ChangeQuery, generation: UInt64) async throws -> ChangeSet {
        try await readSharedPage(query, generation: generation).page
    }

    /// `readPage`'s page as its read gave it to every caller that shared the read (`SharedPage`).
    func readSharedPage(_ query: ChangeQuery, generation: UInt64) async throws -> SharedPage {
        let store = self.store, calls = self.calls
        if let types = query.types, types.isEmpty {
            if let anchor = query.anchor { _ = try await calls.blocking { try store.changes(ChangeQuery(patient: query.patient, anchor: anchor, limit: 1)) } }
            let head = try await calls.blocking { try store.currentAnchor() }
            return SharedPage(ChangeSet(samples: [], deletedObjects: [], anchor: head, hasMore: false))
        }
        let key = SharedPageKey(query: query, generation: generation)
        let page: SharedPage
        if let ahead = pagesAhead.take(key, epoch: notifier.interruptEpoch), let read = try? await ahead.value {
            page = SharedPage(read)
            metrics.feedPageReadAhead()
        } else {
            page = try await sharedReads.value(for: key) { SharedPage(try await calls.blocking { try store.changes(query) }) }
        }
        // A walk's next page is read while this one is written and sent.
        pagesAhead.readAfter(page.page, of: key, epoch: notifier.interruptEpoch) { next in try await calls.blocking { try store.changes(next) } }
        return page
    }

    /// Requests waiting for a change now: parked long polls and open event streams (each counts, parked or not).
    var parkedCount: Int { max(0, notifier.waiterCount - streams.parked + streams.open) }
}
