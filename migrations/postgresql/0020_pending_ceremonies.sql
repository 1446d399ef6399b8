-- Pending sign-in ceremonies, as SQLite's 0028: shared by every instance over this database, so a ceremony begun on
-- one instance may finish on another. key is the SHA-256 of the ceremony's handle; payload holds no secret. Times
-- are milliseconds since 1970 UTC.
CREATE TABLE pending_ceremonies (
    kind       text COLLATE "C" NOT NULL CHECK (kind IN ('passkey', 'oidc')),
    key        bytea NOT NULL CHECK (length(key) = 32),
    payload    bytea NOT NULL,
    expires_at bigint NOT NULL,
    PRIMARY KEY (kind, key)
);
CREATE INDEX pending_ceremonies_by_expiry ON pending_ceremonies (kind, expires_at);
