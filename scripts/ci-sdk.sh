#!/usr/bin/env bash
# CareSyncClient check: builds the caresync server, then runs the client package's tests
# (Clients/Swift, Foundation only) against live servers started from that binary on temporary
# databases (EnrollTests: a therapist's enrolment code redeemed by the SDK and by `caresync-agent enroll`). Self-contained and non-interactive; exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$(pwd)"

swift build --product caresync
export CARESYNC_BIN="$(swift build --show-bin-path)/caresync"

cd "$repo/Clients/Swift"
swift build --build-tests
swift test --skip-build
