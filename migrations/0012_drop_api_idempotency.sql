-- Idempotency-Key answers now live in the store's idempotency_records (0001), written in the same
-- transaction as the write they answer; the API's separate table from 0011 is no longer used.
DROP TABLE api_idempotency;
