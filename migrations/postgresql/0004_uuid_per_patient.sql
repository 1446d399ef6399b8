-- Sample uuids are unique per patient, not across patients, as SQLite's 0013 (issue 25): a client uuid is checked
-- against its own patient's samples and tombstones only.
DROP INDEX samples_uuid;
CREATE UNIQUE INDEX samples_uuid ON samples (patient, uuid);
DROP INDEX tombstones_uuid;
CREATE UNIQUE INDEX tombstones_uuid ON tombstones (patient, uuid);
