-- OpenID Connect identities of people, as SQLite's 0023: a provider's issuer and subject name one person.
CREATE TABLE person_identities (
    issuer     text COLLATE "C" NOT NULL CHECK (length(issuer) BETWEEN 1 AND 2048),
    subject    text COLLATE "C" NOT NULL CHECK (length(subject) BETWEEN 1 AND 255),
    person_id  text COLLATE "C" NOT NULL REFERENCES people (id),
    created_at bigint NOT NULL,
    PRIMARY KEY (issuer, subject)
);
CREATE INDEX person_identities_by_person ON person_identities (person_id, created_at);
