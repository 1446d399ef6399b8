-- Monitoring episodes, review minutes and goals (issue 28; docs/monitoring.md). Days are 'YYYY-MM-DD' in the
-- patient's calendar; times are INTEGER milliseconds since 1970 (UTC). No free text: categories and goal kinds
-- are fixed names.

-- One row per episode; at most one open (end_day NULL) per patient.
CREATE TABLE monitoring_episodes (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    patient_id TEXT NOT NULL,
    start_day  TEXT NOT NULL,
    end_day    TEXT,
    started_by TEXT NOT NULL,
    started_at INTEGER NOT NULL,
    ended_by   TEXT,
    ended_at   INTEGER,
    CHECK (end_day IS NULL OR end_day >= start_day)
);
CREATE UNIQUE INDEX monitoring_episodes_open ON monitoring_episodes (patient_id) WHERE end_day IS NULL;
CREATE INDEX monitoring_episodes_by_patient ON monitoring_episodes (patient_id, start_day);

-- Minutes of review or interaction, logged by a therapist.
CREATE TABLE review_minutes (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    patient_id TEXT NOT NULL,
    day        TEXT NOT NULL,
    minutes    INTEGER NOT NULL CHECK (minutes BETWEEN 1 AND 240),
    category   TEXT NOT NULL,
    logged_by  TEXT NOT NULL,
    logged_at  INTEGER NOT NULL
);
CREATE INDEX review_minutes_by_patient ON review_minutes (patient_id, day);

-- The current goal per patient and kind (daily steps, six-minute-walk target, …).
CREATE TABLE patient_goals (
    patient_id TEXT NOT NULL,
    kind       TEXT NOT NULL,
    target     REAL NOT NULL,
    set_by     TEXT NOT NULL,
    set_at     INTEGER NOT NULL,
    PRIMARY KEY (patient_id, kind)
) WITHOUT ROWID;
