-- The secret that seals the anchors handed to clients (docs/security.md "Anchors"): 32 random bytes, made once.
INSERT OR IGNORE INTO store_meta (key, value) VALUES ('anchor_key', lower(hex(randomblob(32))));
