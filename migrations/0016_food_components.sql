-- Food (HKCorrelationTypeIdentifierFood): one row per food, as blood pressure's pair, so its components share one
-- uuid, one sync identifier and one change, and are replaced, ignored and deleted together. `components` holds
-- them as JSON text of canonical values by type identifier, keys sorted ({"dietaryEnergyConsumed":250,
-- "dietaryProtein":12.5}; CareSyncCore's ComponentCoding); NULL for every other sample. `value` holds the number
-- of components.
ALTER TABLE samples ADD COLUMN components TEXT;

-- Statistics of a dietary type also read the food rows holding it: a partial covering index of those rows only
-- (empty when it is created), an index-only range scan in start order as samples_correlation is for pairs.
CREATE INDEX samples_component_set ON samples (patient, type, start_ms, end_ms, components, source, user_entered)
    WHERE components IS NOT NULL;
