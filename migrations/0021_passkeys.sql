-- Passkeys (WebAuthn credentials, issue 27; docs/security.md). One row per credential; a person has any number.
-- person_id is the people model's id (no foreign key here: people arrive in their own migration). Times are
-- milliseconds since 1970 UTC. No secret is stored: the public key and the counter are all a sign-in needs.
CREATE TABLE passkeys (
    credential_id   BLOB PRIMARY KEY NOT NULL CHECK (length(credential_id) BETWEEN 1 AND 1023),
    person_id       TEXT NOT NULL,
    user_handle     BLOB NOT NULL CHECK (length(user_handle) BETWEEN 1 AND 64),
    public_key      BLOB NOT NULL,                 -- COSE_Key bytes as the authenticator sent them
    algorithm       INTEGER NOT NULL,              -- COSE: -7 ES256, -257 RS256
    sign_count      INTEGER NOT NULL CHECK (sign_count BETWEEN 0 AND 4294967295),
    aaguid          BLOB NOT NULL CHECK (length(aaguid) = 16),
    backup_eligible INTEGER NOT NULL CHECK (backup_eligible IN (0, 1)),
    backed_up       INTEGER NOT NULL CHECK (backed_up IN (0, 1)),
    name            TEXT NOT NULL,
    created_at      INTEGER NOT NULL,
    last_used_at    INTEGER
) WITHOUT ROWID;
CREATE INDEX passkeys_by_person ON passkeys (person_id, created_at, credential_id);
