-- People who sign in with a browser, their invitations and sessions: the same tables as SQLite's 0017_people.sql.
CREATE TABLE people (
    id             text COLLATE "C" PRIMARY KEY,
    role           text COLLATE "C" NOT NULL CHECK (role IN ('therapist', 'admin')),
    care_teams     text COLLATE "C" NOT NULL,
    display_name   text NOT NULL,
    created_at     bigint NOT NULL,
    deactivated_at bigint
);

CREATE TABLE invitations (
    id           text COLLATE "C" PRIMARY KEY,
    secret_hash  bytea NOT NULL UNIQUE CHECK (length(secret_hash) = 32),
    role         text COLLATE "C" NOT NULL CHECK (role IN ('therapist', 'admin')),
    care_teams   text COLLATE "C" NOT NULL,
    display_name text NOT NULL,
    person_id    text COLLATE "C" REFERENCES people (id),
    created_at   bigint NOT NULL,
    expires_at   bigint NOT NULL,
    redeemed_at  bigint
);

CREATE TABLE sessions (
    id           text COLLATE "C" PRIMARY KEY,
    secret_hash  bytea NOT NULL UNIQUE CHECK (length(secret_hash) = 32),
    person_id    text COLLATE "C" NOT NULL REFERENCES people (id),
    created_at   bigint NOT NULL,
    last_used_at bigint NOT NULL,
    expires_at   bigint NOT NULL,
    ended_at     bigint
);
CREATE INDEX sessions_by_person ON sessions (person_id, created_at);
