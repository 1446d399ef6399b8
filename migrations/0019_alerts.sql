-- Alerts (docs/alerts.md, issue 28): each care team's rules (a team without a row has the defaults) and the alerts they
-- raised, keyed by patient id (erased with the patient). At most one unresolved alert per team, patient, rule and subject.
-- The webhook outbox and deliveries learn the event type: alert events carry the alert's id, rule and care team, never
-- a figure; their seq and anchor are 0 and ''. Times are milliseconds since 1970 UTC.
CREATE TABLE alert_rules (
    care_team                     TEXT PRIMARY KEY NOT NULL,
    device_silent_enabled         INTEGER NOT NULL,
    device_silent_hours           INTEGER NOT NULL,
    period_cannot_reach16_enabled INTEGER NOT NULL,
    period_behind_pace_enabled    INTEGER NOT NULL,
    weekly_steps_drop_enabled     INTEGER NOT NULL,
    weekly_steps_drop_percent     REAL NOT NULL,
    walk_test_drop_enabled        INTEGER NOT NULL,
    walk_test_drop_meters         REAL NOT NULL
) WITHOUT ROWID;

CREATE TABLE alerts (
    id                 TEXT PRIMARY KEY NOT NULL,
    care_team          TEXT NOT NULL,
    patient_id         TEXT NOT NULL,
    rule               TEXT NOT NULL,
    subject            TEXT NOT NULL,
    state              TEXT NOT NULL CHECK (state IN ('open', 'acknowledged', 'resolved')),
    raised_at_ms       INTEGER NOT NULL,
    acknowledged_at_ms INTEGER,
    acknowledged_by    TEXT,
    resolved_at_ms     INTEGER,
    resolved_by        TEXT,               -- NULL with resolved_at_ms set: the condition cleared
    rearmed_at_ms      INTEGER             -- a therapist-resolved alert whose condition cleared afterwards
) WITHOUT ROWID;
CREATE UNIQUE INDEX alerts_unresolved ON alerts (care_team, patient_id, rule, subject) WHERE state <> 'resolved';
CREATE INDEX alerts_by_patient ON alerts (patient_id, raised_at_ms);
CREATE INDEX alerts_by_team ON alerts (care_team, raised_at_ms);

ALTER TABLE webhook_outbox ADD COLUMN event TEXT NOT NULL DEFAULT 'patient.changed';
ALTER TABLE webhook_outbox ADD COLUMN alert_id TEXT;
ALTER TABLE webhook_outbox ADD COLUMN alert_rule TEXT;
ALTER TABLE webhook_outbox ADD COLUMN alert_care_team TEXT;
ALTER TABLE webhook_deliveries ADD COLUMN event TEXT NOT NULL DEFAULT 'patient.changed';
ALTER TABLE webhook_deliveries ADD COLUMN alert_id TEXT;
ALTER TABLE webhook_deliveries ADD COLUMN alert_rule TEXT;
ALTER TABLE webhook_deliveries ADD COLUMN alert_care_team TEXT;
