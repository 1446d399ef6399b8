-- OpenID Connect identities of people (issue 27; docs/security.md "OpenID Connect"): a provider's issuer and subject
-- (`iss` + `sub` of its ID tokens) name one person. Linked by an admin or by accepting an invitation through the
-- provider. No token or secret is stored. Times are milliseconds since 1970 UTC.
CREATE TABLE person_identities (
    issuer     TEXT NOT NULL CHECK (length(issuer) BETWEEN 1 AND 2048),
    subject    TEXT NOT NULL CHECK (length(subject) BETWEEN 1 AND 255),
    person_id  TEXT NOT NULL REFERENCES people(id),
    created_at INTEGER NOT NULL,
    PRIMARY KEY (issuer, subject)
) WITHOUT ROWID;
CREATE INDEX person_identities_by_person ON person_identities (person_id, created_at);
