#!/usr/bin/env bash
# The PostgreSQL store: starts a throwaway PostgreSQL 15 (scripts/ci-lib.sh `ci_postgres`) and runs against it
# the store contract suite (every contract test, the transaction contract and the model-based run included),
# the PostgreSQL tests (libpq layer, group commit, migrator, the ordering scheme, concurrent instances, job leases,
# the API on PostgreSQL, its feed, idempotency, long poll and stream through two instances, a chain of incremental
# FHIR bulk exports replayed against the feed), then `caresync migrate`
# and `caresync serve` with CARESYNC_DATABASE_URL.
# Without CARESYNC_TEST_POSTGRES_URL those tests skip themselves; here they must run.
# Self-contained and non-interactive; exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ci-lib.sh

[ -x "$pg_bin/initdb" ] || { echo "PostgreSQL 15 is missing: apt-get install postgresql-15 libpq-dev"; exit 1; }
swift build --build-tests
started=$SECONDS
ci_postgres

suites='ContractTests|ChangeOrderingTests|PostgresConcurrencyTests|PostgresConnectionTests|PostgresGroupCommitTests|PostgresMigratorTests|PostgresWriteTimeMigrationTests|PostgresServerTests|PostgresJobLeasesTests|LeasedJobServerTests|TwoInstanceAPITests|PostgresWebhookServerTests|PostgresExportReplayTests|AlertJobServerTests|ErasureEndpointTests'
# The model-based run only on PostgreSQL here (`swift test` ran it on the others), 1,000 operations.
CARESYNC_TEST_POSTGRES_URL="$pg_url" CARESYNC_MODEL_STORES=PostgresSyncStore CARESYNC_MODEL_OPS="${CARESYNC_MODEL_OPS:-1000}" \
  swift test --skip-build --filter "$suites" 2>&1 | tee "$pg_dir/tests.log" | grep -E '^(✘|✔ Test run|✘ Test run)' || true
grep -q '✔ Test run' "$pg_dir/tests.log" || { grep -E 'error|recorded an issue' "$pg_dir/tests.log" | head -40; exit 1; }
# Every PostgreSQL suite ran (not skipped): a missing variable would pass silently otherwise.
for suite in ChangeOrderingTests PostgresConnectionTests PostgresServerTests PostgresJobLeasesTests LeasedJobServerTests \
             TwoInstanceAPITests PostgresWebhookServerTests PostgresExportReplayTests; do
  grep -q "Suite $suite passed" "$pg_dir/tests.log" || { echo "$suite did not run"; exit 1; }
done
grep -q 'PostgresSyncStore to ' "$pg_dir/tests.log" || { echo "the contract suite did not run on PostgreSQL"; exit 1; }
grep -q 'PostgresSyncStore to fanOutNumbersEachSubscriptionsDeliveriesInCommitOrder' "$pg_dir/tests.log" \
  || { echo "the webhook contract suite did not run on PostgreSQL"; exit 1; }
grep -q 'PostgresSyncStore to beyondTheCapTheOldestWaitingAfterTheHeadAreDroppedAndCounted' "$pg_dir/tests.log" \
  || { echo "the webhook queue-bound contract suite did not run on PostgreSQL"; exit 1; }
# The command line on PostgreSQL: migrate (twice: the second changes nothing), an operator command, serve.
ci_build
ci_workdir
# caresync refuses CARESYNC_ variables it does not know, such as the test run's.
unset CARESYNC_MODEL_OPS CARESYNC_MODEL_STORES CARESYNC_TEST_POSTGRES_URL
export CARESYNC_DATABASE_URL="$pg_url" CARESYNC_LOG_LEVEL=warning
[ "$("$bin" migrate)" = "applied 0001_store.sql, 0002_correlations.sql, 0003_webhooks.sql, 0004_uuid_per_patient.sql, 0005_webhook_queue_bound.sql, 0006_anchor_key.sql, 0007_monitoring.sql, 0008_food_components.sql, 0009_people.sql, 0010_enrolments.sql, 0011_alerts.sql, 0013_passkeys.sql, 0014_erasure.sql, 0015_person_identities.sql, 0016_patient_display_names.sql, 0017_care_team_join_order.sql, 0018_commit_times.sql, 0019_sample_days.sql, 0020_pending_ceremonies.sql, 0021_erasure_count.sql, 0022_bulk_exports.sql, 0023_care_team_leaves.sql, 0024_care_team_departures.sql" ] && [ "$("$bin" migrate)" = "up to date" ] || { echo "caresync migrate"; exit 1; }
"$bin" patient create alice --time-zone UTC >/dev/null
device="$("$bin" token create --role device --patient alice 2>/dev/null)"
ci_serve
curl -fsS "$url/readyz" | grep -q '"ready"'
curl -fsS -X POST -H "Authorization: Bearer $device" -H 'Content-Type: application/json' "$url/v1/patients/alice/samples" \
  -d '{"samples":[{"type":"stepCount","value":5,"unit":"count","start":"2020-06-18T09:00:00Z","end":"2020-06-18T09:30:00Z"}]}' >/dev/null
curl -fsS -H "Authorization: Bearer $device" "$url/v1/patients/alice/changes" | grep -q '"value":5'
ci_stop
[ ! -e "$CARESYNC_DATABASE" ] || { echo "serve on PostgreSQL made a SQLite file"; exit 1; }
echo "PostgreSQL checks passed in $((SECONDS - started)) s (server start, tests, schema cleanup)"
