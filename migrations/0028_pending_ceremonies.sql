-- Pending sign-in ceremonies (passkey challenges, OpenID Connect sign-ins at the provider), shared by every instance
-- over this database, so a ceremony begun on one instance may finish on another and survives a restart. key is the
-- SHA-256 of the ceremony's handle (never the handle); payload holds no secret. Times are milliseconds since 1970 UTC.
CREATE TABLE pending_ceremonies (
    kind       TEXT NOT NULL CHECK (kind IN ('passkey', 'oidc')),
    key        BLOB NOT NULL CHECK (length(key) = 32),
    payload    BLOB NOT NULL,
    expires_at INTEGER NOT NULL,
    PRIMARY KEY (kind, key)
) WITHOUT ROWID;
CREATE INDEX pending_ceremonies_by_expiry ON pending_ceremonies (kind, expires_at);
