-- People who sign in with a browser (therapists, admins), their one-time invitations and their sessions (issue 27).
-- Secrets are never stored: only SHA-256 of each. Care teams are comma lists of team names (which hold no comma).
-- Times are milliseconds since 1970 UTC.
CREATE TABLE people (
    id             TEXT PRIMARY KEY NOT NULL,
    role           TEXT NOT NULL CHECK (role IN ('therapist', 'admin')),
    care_teams     TEXT NOT NULL,
    display_name   TEXT NOT NULL,
    created_at     INTEGER NOT NULL,
    deactivated_at INTEGER
) WITHOUT ROWID;

CREATE TABLE invitations (
    id           TEXT PRIMARY KEY NOT NULL,
    secret_hash  BLOB NOT NULL UNIQUE CHECK (length(secret_hash) = 32),
    role         TEXT NOT NULL CHECK (role IN ('therapist', 'admin')),
    care_teams   TEXT NOT NULL,
    display_name TEXT NOT NULL,
    person_id    TEXT REFERENCES people(id),
    created_at   INTEGER NOT NULL,
    expires_at   INTEGER NOT NULL,
    redeemed_at  INTEGER
) WITHOUT ROWID;

CREATE TABLE sessions (
    id           TEXT PRIMARY KEY NOT NULL,
    secret_hash  BLOB NOT NULL UNIQUE CHECK (length(secret_hash) = 32),
    person_id    TEXT NOT NULL REFERENCES people(id),
    created_at   INTEGER NOT NULL,
    last_used_at INTEGER NOT NULL,
    expires_at   INTEGER NOT NULL,
    ended_at     INTEGER
) WITHOUT ROWID;
CREATE INDEX sessions_by_person ON sessions(person_id, created_at);
