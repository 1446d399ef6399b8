-- Webhooks, as SQLite's 0005 (docs/api.md "Webhooks"). The outbox gets one row per commit and patient whose feed it
-- changed, inside that commit's transaction (PostgresSyncStore); writers hold the store's head row while they insert,
-- so ids follow commit order. The dispatcher (one instance at a time: a session advisory lock) moves rows into
-- per-subscription deliveries, numbered 1, 2, 3… per subscription, and deletes them, in one transaction.
CREATE TABLE webhook_outbox (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    patient       text COLLATE "C" NOT NULL,
    seq           bigint NOT NULL,      -- the change log's head after the commit
    anchor        text COLLATE "C" NOT NULL,
    created_at_ms bigint NOT NULL
);

CREATE TABLE webhook_subscriptions (
    id                      text COLLATE "C" PRIMARY KEY,
    url                     text NOT NULL,
    secret                  text NOT NULL,
    events                  text COLLATE "C" NOT NULL,   -- comma list
    created_at_ms           bigint NOT NULL,
    outbox_watermark        bigint NOT NULL,             -- outbox rows up to this id were committed before it existed
    paused                  boolean NOT NULL DEFAULT false,
    next_sequence           bigint NOT NULL DEFAULT 1,
    last_delivered_sequence bigint NOT NULL DEFAULT 0,
    failing_since_ms        bigint
);

CREATE TABLE webhook_subscription_patients (
    subscription_id text COLLATE "C" NOT NULL REFERENCES webhook_subscriptions (id) ON DELETE CASCADE,
    patient_id      text COLLATE "C" NOT NULL,
    PRIMARY KEY (subscription_id, patient_id)
);

CREATE TABLE webhook_subscription_care_teams (
    subscription_id text COLLATE "C" NOT NULL REFERENCES webhook_subscriptions (id) ON DELETE CASCADE,
    care_team       text COLLATE "C" NOT NULL,
    PRIMARY KEY (subscription_id, care_team)
);

CREATE TABLE webhook_deliveries (
    subscription_id     text COLLATE "C" NOT NULL REFERENCES webhook_subscriptions (id) ON DELETE CASCADE,
    sequence            bigint NOT NULL,
    patient             text COLLATE "C" NOT NULL,
    anchor              text COLLATE "C" NOT NULL,
    event_time_ms       bigint NOT NULL,
    state               text COLLATE "C" NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
    attempts            integer NOT NULL DEFAULT 0,
    first_attempt_at_ms bigint,
    next_attempt_at_ms  bigint NOT NULL,
    last_status         integer,
    last_error          text,
    completed_at_ms     bigint,
    PRIMARY KEY (subscription_id, sequence)
);
-- The head of each subscription's queue: the lowest pending sequence.
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (subscription_id, sequence) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_completed ON webhook_deliveries (completed_at_ms) WHERE state <> 'pending';
