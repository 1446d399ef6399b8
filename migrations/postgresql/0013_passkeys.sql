-- Passkeys, as SQLite's 0021: one row per WebAuthn credential; person_id is the people model's id (no foreign key
-- here: people arrive in their own migration). Times are milliseconds since 1970 UTC.
CREATE TABLE passkeys (
    credential_id   bytea PRIMARY KEY CHECK (length(credential_id) BETWEEN 1 AND 1023),
    person_id       text COLLATE "C" NOT NULL,
    user_handle     bytea NOT NULL CHECK (length(user_handle) BETWEEN 1 AND 64),
    public_key      bytea NOT NULL,                -- COSE_Key bytes as the authenticator sent them
    algorithm       bigint NOT NULL,               -- COSE: -7 ES256, -257 RS256
    sign_count      bigint NOT NULL CHECK (sign_count BETWEEN 0 AND 4294967295),
    aaguid          bytea NOT NULL CHECK (length(aaguid) = 16),
    backup_eligible boolean NOT NULL,
    backed_up       boolean NOT NULL,
    name            text NOT NULL,
    created_at      bigint NOT NULL,
    last_used_at    bigint
);
CREATE INDEX passkeys_by_person ON passkeys (person_id, created_at, credential_id);
