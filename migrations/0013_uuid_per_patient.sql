-- Sample uuids are unique per patient, not across patients (issue 25): a client uuid is checked against its own
-- patient's samples and tombstones only, so no answer tells that another patient uses it, and a uuid planted in one
-- patient cannot fail another patient's batch.
DROP INDEX samples_uuid;
CREATE UNIQUE INDEX samples_uuid ON samples (patient, uuid);
DROP INDEX tombstones_uuid;
CREATE UNIQUE INDEX tombstones_uuid ON tombstones (patient, uuid);
