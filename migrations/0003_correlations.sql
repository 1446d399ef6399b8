-- Correlations (bloodPressure): one row per correlation, so its components share one uuid, one sync
-- identifier and one change-log entry, and are replaced, ignored and deleted together. `value` holds
-- the first component (systolic), `second_value` the second (diastolic), both in the canonical unit;
-- `second_value` is NULL for every other sample.
ALTER TABLE samples ADD COLUMN second_value REAL;

-- Statistics of a component (bloodPressureSystolic, bloodPressureDiastolic) also read the correlation
-- rows. A partial covering index: it holds correlation rows only (none when it is created, so the
-- migration costs nothing on a large store) and leaves samples_span and the other samples as they are.
CREATE INDEX samples_correlation ON samples (patient, type, start_ms, end_ms, value, second_value, source, user_entered)
    WHERE second_value IS NOT NULL;
