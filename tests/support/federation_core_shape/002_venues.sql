-- The federation's own database (schema/federation/, applied by `tableside federation serve`;
-- numbers 001-099 are the core's, 100-199 the public read side's). Decision 0165.
--
-- A venue enrols once with a code the federation admin made (only the code's SHA-256 is
-- kept): enrolling binds the venue's name and its checkpoint public key, and hands the venue
-- a push credential (kept here as its SHA-256 only).
CREATE TABLE enrolment_codes (
    code_hash   bytea       PRIMARY KEY CHECK (octet_length(code_hash) = 32),
    venue_name  text        NOT NULL CHECK (length(venue_name) BETWEEN 1 AND 200),
    created_by  text        NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz NOT NULL,
    used_at     timestamptz,
    venue_id    uuid
);

CREATE TABLE venues (
    venue_id        uuid        PRIMARY KEY,
    name            text        NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    public_key      bytea       NOT NULL CHECK (octet_length(public_key) = 32),
    credential_hash bytea       NOT NULL UNIQUE CHECK (octet_length(credential_hash) = 32),
    enrolled_at     timestamptz NOT NULL DEFAULT now()
);

-- Every key the venue's record was signed with: the enrolled one, then each rotation the
-- venue's store carries (signed by the key before it, eventlog/rotation.py).
CREATE TABLE venue_keys (
    venue_id      uuid        NOT NULL REFERENCES venues (venue_id),
    public_key    bytea       NOT NULL CHECK (octet_length(public_key) = 32),
    registered_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (venue_id, public_key)
);
