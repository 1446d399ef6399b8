-- Answers to POSTs that carried an Idempotency-Key, per token, kept until expires_at.
CREATE TABLE api_idempotency (
    token_id     TEXT NOT NULL,
    key          TEXT NOT NULL,
    request_hash BLOB NOT NULL,
    status       INTEGER NOT NULL,
    body         BLOB NOT NULL,
    expires_at   INTEGER NOT NULL,
    PRIMARY KEY (token_id, key)
) WITHOUT ROWID;
CREATE INDEX api_idempotency_by_expiry ON api_idempotency(expires_at);
