-- Correlations (bloodPressure), as SQLite's 0003: one row per correlation, so its components share one uuid,
-- one sync identifier and one change. `value` holds the first component (systolic), `second_value` the second
-- (diastolic), both in the canonical unit; `second_value` is NULL for every other sample.
ALTER TABLE samples ADD COLUMN second_value double precision;

-- Statistics of a component also read the correlation rows: a partial covering index of those rows only
-- (empty when it is created), an index-only range scan in start order as samples_span is for the others.
CREATE INDEX samples_correlation ON samples (patient, type, start_ms) INCLUDE (end_ms, value, second_value, source, user_entered)
    WHERE second_value IS NOT NULL;
