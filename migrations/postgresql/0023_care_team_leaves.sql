-- How many patients were taken off care teams (AccessStore.careTeamLeaves), as SQLite's 0030. Instances over this
-- database hear each removal on the store's channel; the count is there for tools and the store contract.
-- A one-row counter, raised in the removal's transaction.
CREATE TABLE care_team_leaves (last bigint NOT NULL);
INSERT INTO care_team_leaves (last) VALUES (0);
