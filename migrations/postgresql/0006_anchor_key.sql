-- The secret that seals the anchors handed to clients (docs/security.md "Anchors"), shared by every instance:
-- 64 hex digits from two random UUIDs (gen_random_uuid draws from the server's strong random source).
INSERT INTO store_meta (key, value)
VALUES ('anchor_key', replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', ''))
ON CONFLICT (key) DO NOTHING;
