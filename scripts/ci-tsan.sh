#!/usr/bin/env bash
# The store's concurrency-heavy suites under ThreadSanitizer (.ci/run): group commit, the reader pool, feed pages read
# by concurrent readers and writers, long-poll wake-ups (ChangeNotifier), the contract suite on every store
# (CareSyncStoreTests). Any report fails the run.
#
# Not yet here: the server's suites (streams, webhooks, rate limiter, long polls over HTTP). Their state sits in
# Synchronization's Mutex, whose contended hand-over (a priority-inheriting futex in the uninstrumented runtime) TSan
# cannot see, so it reports races that are not (SharedReads, ConnectionAdmission so far). The store side moved to
# Locked (CareSyncCore), a pthread lock TSan sees; the server and HTTP modules need the same before they join.
set -euo pipefail
cd "$(dirname "$0")/.."
suites='CareSyncStoreTests'
# Left out: the feed's negative control, whose deliberately wrong feed must be caught by an interleaving the
# sanitizer's slowdown makes rare (it runs in the plain suite).
skipped='negativeControlHalvesFromTwoSnapshotsAreCaught'
start=$(date +%s)
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$PWD/scripts/tsan-suppressions.txt" \
  swift test --sanitize=thread --scratch-path .build/tsan --filter "$suites" --skip "$skipped"
echo "ci-tsan: passed in $(( $(date +%s) - start )) s"
