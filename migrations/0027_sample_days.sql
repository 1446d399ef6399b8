-- Figures per patient, local day, source and type, kept up to date in every write transaction (docs/status.md,
-- `SampleDayRows`): the live samples that start that day (count and latest start) and, for a cumulative type, each
-- sample's value prorated by its time on that day (`counted` samples, their `total`). `day` is days since 1970-01-01
-- in the zone `sample_day_zones` names for the patient; a patient without a row there (every patient before this
-- migration) has the figures rebuilt by the next write, and is read from the samples until then.
CREATE TABLE sample_days (
    patient         TEXT NOT NULL,
    day             INTEGER NOT NULL,
    source          TEXT NOT NULL,
    type            TEXT NOT NULL,
    starts          INTEGER NOT NULL,
    newest_start_ms INTEGER,
    counted         INTEGER NOT NULL,
    total           REAL NOT NULL,
    PRIMARY KEY (patient, day, source, type)
) WITHOUT ROWID;
-- The time zone each patient's figures are in (the patient's when they were last written).
CREATE TABLE sample_day_zones (
    patient   TEXT PRIMARY KEY NOT NULL,
    time_zone TEXT NOT NULL
) WITHOUT ROWID;
