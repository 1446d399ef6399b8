-- Device enrolments (a one-time code per row, only its SHA-256 hash kept) and the display names of enrolled sources.
-- Times are milliseconds since 1970 UTC.
CREATE TABLE enrolments (
    id           TEXT PRIMARY KEY NOT NULL,
    patient_id   TEXT NOT NULL REFERENCES patients(id),
    code_hash    BLOB NOT NULL UNIQUE CHECK (length(code_hash) = 32),
    created_by   TEXT NOT NULL,
    created_at   INTEGER NOT NULL,
    expires_at   INTEGER NOT NULL,
    redeemed_at  INTEGER,
    cancelled_at INTEGER,
    token_id     TEXT
) WITHOUT ROWID;
CREATE INDEX enrolments_by_patient ON enrolments(patient_id, created_at);

-- One display name per patient and source ("Apple Watch" for org.example.watch), from the latest enrolment.
CREATE TABLE device_sources (
    patient_id   TEXT NOT NULL REFERENCES patients(id),
    source       TEXT NOT NULL,
    display_name TEXT NOT NULL,
    token_id     TEXT NOT NULL,
    enrolled_at  INTEGER NOT NULL,
    PRIMARY KEY (patient_id, source)
) WITHOUT ROWID;
