#!/usr/bin/env bash
# The PostgreSQL store: starts a throwaway PostgreSQL 15 (scripts/ci-lib.sh `ci_postgres`) and runs against it
# the store contract suite (every contract test, the transaction contract and the model-based run included)
# and the PostgreSQL tests (libpq layer, group commit, migrator, the ordering scheme, concurrent instances).
# Without CARESYNC_TEST_POSTGRES_URL those tests skip themselves; here they must run.
# Self-contained and non-interactive; exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ci-lib.sh

[ -x "$pg_bin/initdb" ] || { echo "PostgreSQL 15 is missing: apt-get install postgresql-15 libpq-dev"; exit 1; }
swift build --build-tests
started=$SECONDS
ci_postgres

suites='ContractTests|ChangeOrderingTests|PostgresConcurrencyTests|PostgresConnectionTests|PostgresGroupCommitTests|PostgresMigratorTests'
# The model-based run only on PostgreSQL here (`swift test` ran it on the others), 1,000 operations.
CARESYNC_TEST_POSTGRES_URL="$pg_url" CARESYNC_MODEL_STORES=PostgresSyncStore CARESYNC_MODEL_OPS="${CARESYNC_MODEL_OPS:-1000}" \
  swift test --skip-build --filter "$suites" 2>&1 | tee "$pg_dir/tests.log" | grep -E '^(✘|✔ Test run|✘ Test run)' || true
grep -q '✔ Test run' "$pg_dir/tests.log" || { grep -E 'error|recorded an issue' "$pg_dir/tests.log" | head -40; exit 1; }
# Every PostgreSQL suite ran (not skipped): a missing variable would pass silently otherwise.
for suite in ChangeOrderingTests PostgresConnectionTests; do
  grep -q "Suite $suite passed" "$pg_dir/tests.log" || { echo "$suite did not run"; exit 1; }
done
grep -q 'PostgresSyncStore to ' "$pg_dir/tests.log" || { echo "the contract suite did not run on PostgreSQL"; exit 1; }
echo "PostgreSQL checks passed in $((SECONDS - started)) s (server start, tests, schema cleanup)"
