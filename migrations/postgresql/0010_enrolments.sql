-- Device enrolments and source display names, as SQLite's 0018: only a SHA-256 hash of each one-time code is kept.
CREATE TABLE enrolments (
    id           text COLLATE "C" PRIMARY KEY,
    patient_id   text COLLATE "C" NOT NULL REFERENCES patients (id),
    code_hash    bytea NOT NULL UNIQUE CHECK (length(code_hash) = 32),
    created_by   text COLLATE "C" NOT NULL,
    created_at   bigint NOT NULL,
    expires_at   bigint NOT NULL,
    redeemed_at  bigint,
    cancelled_at bigint,
    token_id     text COLLATE "C"
);
CREATE INDEX enrolments_by_patient ON enrolments (patient_id, created_at);

CREATE TABLE device_sources (
    patient_id   text COLLATE "C" NOT NULL REFERENCES patients (id),
    source       text COLLATE "C" NOT NULL,
    display_name text NOT NULL,
    token_id     text COLLATE "C" NOT NULL,
    enrolled_at  bigint NOT NULL,
    PRIMARY KEY (patient_id, source)
);
