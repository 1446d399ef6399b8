-- Webhooks (docs/api.md "Webhooks"). The outbox gets one row per commit and patient whose feed it changed, inside
-- that commit's transaction (SQLiteSyncStore); the dispatcher moves rows into per-subscription deliveries, numbered
-- 1, 2, 3… per subscription, and deletes them, in one transaction. Times are milliseconds since 1970 UTC.
CREATE TABLE webhook_outbox (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    patient       TEXT NOT NULL,
    seq           INTEGER NOT NULL,      -- the change log's head after the commit
    anchor        TEXT NOT NULL,         -- the feed's anchor at that head, encoded
    created_at_ms INTEGER NOT NULL
);

CREATE TABLE webhook_subscriptions (
    id                      TEXT PRIMARY KEY NOT NULL,
    url                     TEXT NOT NULL,
    secret                  TEXT NOT NULL,
    events                  TEXT NOT NULL,            -- comma list
    created_at_ms           INTEGER NOT NULL,
    outbox_watermark        INTEGER NOT NULL,         -- outbox rows up to this id were committed before it existed
    paused                  INTEGER NOT NULL DEFAULT 0,
    next_sequence           INTEGER NOT NULL DEFAULT 1,
    last_delivered_sequence INTEGER NOT NULL DEFAULT 0,
    failing_since_ms        INTEGER
) WITHOUT ROWID;

CREATE TABLE webhook_subscription_patients (
    subscription_id TEXT NOT NULL REFERENCES webhook_subscriptions(id) ON DELETE CASCADE,
    patient_id      TEXT NOT NULL,
    PRIMARY KEY (subscription_id, patient_id)
) WITHOUT ROWID;

CREATE TABLE webhook_subscription_care_teams (
    subscription_id TEXT NOT NULL REFERENCES webhook_subscriptions(id) ON DELETE CASCADE,
    care_team       TEXT NOT NULL,
    PRIMARY KEY (subscription_id, care_team)
) WITHOUT ROWID;

CREATE TABLE webhook_deliveries (
    subscription_id     TEXT NOT NULL REFERENCES webhook_subscriptions(id) ON DELETE CASCADE,
    sequence            INTEGER NOT NULL,
    patient             TEXT NOT NULL,
    anchor              TEXT NOT NULL,
    event_time_ms       INTEGER NOT NULL,
    state               TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
    attempts            INTEGER NOT NULL DEFAULT 0,
    first_attempt_at_ms INTEGER,
    next_attempt_at_ms  INTEGER NOT NULL,
    last_status         INTEGER,
    last_error          TEXT,
    completed_at_ms     INTEGER,
    PRIMARY KEY (subscription_id, sequence)
) WITHOUT ROWID;
-- The head of each subscription's queue: the lowest pending sequence.
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries(subscription_id, sequence) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_completed ON webhook_deliveries(completed_at_ms) WHERE state <> 'pending';
