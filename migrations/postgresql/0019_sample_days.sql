-- Figures per patient, local day, source and type, kept up to date in every write transaction (docs/status.md,
-- `SampleDayRows`): the live samples that start that day (count and latest start) and, for a cumulative type, each
-- sample's value prorated by its time on that day (`counted` samples, their `total`). `day` is days since 1970-01-01
-- in the zone `sample_day_zones` names for the patient; a patient without a row there (every patient before this
-- migration) has the figures rebuilt by the next write, and is read from the samples until then.
CREATE TABLE sample_days (
    patient         text COLLATE "C" NOT NULL,
    day             bigint NOT NULL,
    source          text COLLATE "C" NOT NULL,
    type            text COLLATE "C" NOT NULL,
    starts          bigint NOT NULL,
    newest_start_ms bigint,
    counted         bigint NOT NULL,
    total           double precision NOT NULL,
    PRIMARY KEY (patient, day, source, type)
);
-- The time zone each patient's figures are in (the patient's when they were last written).
CREATE TABLE sample_day_zones (
    patient   text COLLATE "C" PRIMARY KEY,
    time_zone text COLLATE "C" NOT NULL
);
