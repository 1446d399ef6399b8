-- How many erasures committed (docs/security.md, "Erasure"). An erasure raises it, which takes the head row as a
-- write does: it waits for the write under way, whose rows it then removes, and every later write reads the new count
-- with the row lock, sees an erasure since it last looked, and reads `erased_patients` again (no write stores rows for
-- an erased id, whichever instance proved its reach before).
ALTER TABLE store_head ADD COLUMN erasures bigint NOT NULL DEFAULT 0;
