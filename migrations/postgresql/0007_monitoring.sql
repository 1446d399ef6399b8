-- Monitoring episodes, review minutes and goals (issue 28; docs/monitoring.md): the tables of SQLite's 0015.
-- Days are 'YYYY-MM-DD' text in the patient's calendar; times are bigint milliseconds since 1970 (UTC).

CREATE TABLE monitoring_episodes (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    patient_id text COLLATE "C" NOT NULL,
    start_day  text COLLATE "C" NOT NULL,
    end_day    text COLLATE "C",
    started_by text COLLATE "C" NOT NULL,
    started_at bigint NOT NULL,
    ended_by   text COLLATE "C",
    ended_at   bigint,
    CHECK (end_day IS NULL OR end_day >= start_day)
);
CREATE UNIQUE INDEX monitoring_episodes_open ON monitoring_episodes (patient_id) WHERE end_day IS NULL;
CREATE INDEX monitoring_episodes_by_patient ON monitoring_episodes (patient_id, start_day);

CREATE TABLE review_minutes (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    patient_id text COLLATE "C" NOT NULL,
    day        text COLLATE "C" NOT NULL,
    minutes    integer NOT NULL CHECK (minutes BETWEEN 1 AND 240),
    category   text COLLATE "C" NOT NULL,
    logged_by  text COLLATE "C" NOT NULL,
    logged_at  bigint NOT NULL
);
CREATE INDEX review_minutes_by_patient ON review_minutes (patient_id, day);

CREATE TABLE patient_goals (
    patient_id text COLLATE "C" NOT NULL,
    kind       text COLLATE "C" NOT NULL,
    target     double precision NOT NULL,
    set_by     text COLLATE "C" NOT NULL,
    set_at     bigint NOT NULL,
    PRIMARY KEY (patient_id, kind)
);
