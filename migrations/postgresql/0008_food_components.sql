-- Food, as SQLite's 0016: one row per food, so its components share one uuid, one sync identifier and one change.
-- `components` holds them as JSON text of canonical values by type identifier, keys sorted (CareSyncCore's
-- ComponentCoding, the same bytes as on SQLite); NULL for every other sample. `value` holds the number of components.
ALTER TABLE samples ADD COLUMN components text COLLATE "C";

-- Statistics of a dietary type also read the food rows holding it: a partial covering index of those rows only.
CREATE INDEX samples_component_set ON samples (patient, type, start_ms) INCLUDE (end_ms, components, source, user_entered)
    WHERE components IS NOT NULL;
