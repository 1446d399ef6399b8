-- Alerts (docs/alerts.md, issue 28): the tables of SQLite's 0019. At most one unresolved alert per team, patient, rule
-- and subject. The webhook outbox and deliveries learn the event type (alert events: seq 0, anchor '').
CREATE TABLE alert_rules (
    care_team                     text COLLATE "C" PRIMARY KEY,
    device_silent_enabled         boolean NOT NULL,
    device_silent_hours           bigint NOT NULL,
    period_cannot_reach16_enabled boolean NOT NULL,
    period_behind_pace_enabled    boolean NOT NULL,
    weekly_steps_drop_enabled     boolean NOT NULL,
    weekly_steps_drop_percent     double precision NOT NULL,
    walk_test_drop_enabled        boolean NOT NULL,
    walk_test_drop_meters         double precision NOT NULL
);

CREATE TABLE alerts (
    id              text COLLATE "C" PRIMARY KEY,
    care_team       text COLLATE "C" NOT NULL,
    patient_id      text COLLATE "C" NOT NULL,
    rule            text COLLATE "C" NOT NULL,
    subject         text COLLATE "C" NOT NULL,
    state           text COLLATE "C" NOT NULL CHECK (state IN ('open', 'acknowledged', 'resolved')),
    raised_at       bigint NOT NULL,
    acknowledged_at bigint,
    acknowledged_by text COLLATE "C",
    resolved_at     bigint,
    resolved_by     text COLLATE "C",
    rearmed_at      bigint
);
CREATE UNIQUE INDEX alerts_unresolved ON alerts (care_team, patient_id, rule, subject) WHERE state <> 'resolved';
CREATE INDEX alerts_by_patient ON alerts (patient_id, raised_at);
CREATE INDEX alerts_by_team ON alerts (care_team, raised_at);

ALTER TABLE webhook_outbox ADD COLUMN event text COLLATE "C" NOT NULL DEFAULT 'patient.changed',
    ADD COLUMN alert_id text COLLATE "C", ADD COLUMN alert_rule text COLLATE "C", ADD COLUMN alert_care_team text COLLATE "C";
ALTER TABLE webhook_deliveries ADD COLUMN event text COLLATE "C" NOT NULL DEFAULT 'patient.changed',
    ADD COLUMN alert_id text COLLATE "C", ADD COLUMN alert_rule text COLLATE "C", ADD COLUMN alert_care_team text COLLATE "C";
