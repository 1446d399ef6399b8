-- Replica checksums (docs/api.md "Replica checksums"): per (patient, type), the number of live samples and the
-- sum modulo 2^64 of their digests (stored as the signed 64-bit integer with the same bits), kept in the write
-- transaction. A tombstone remembers the sequence of its sample's insert, so the figures as of an earlier anchor
-- follow from the changes after it. The store fills `checksums` from the live samples when it opens a database
-- that has none yet (store_meta 'checksums' = 'ready').
CREATE TABLE checksums (
    patient TEXT NOT NULL,
    type    TEXT NOT NULL,
    count   INTEGER NOT NULL,
    sum     INTEGER NOT NULL,
    PRIMARY KEY (patient, type)
) WITHOUT ROWID;
ALTER TABLE tombstones ADD COLUMN inserted_seq INTEGER;
