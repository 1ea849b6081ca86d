-- Table judge tokens: one bearer token per table (shown as a QR code), valid for the match
-- that table is playing now, revocable. Stored as SHA-256; revoking sends
-- NOTIFY tableside_tokens '<token_id>' so every server process closes its open sockets.
CREATE TABLE judge_tokens (
    token_id   uuid        PRIMARY KEY,
    token_hash bytea       NOT NULL UNIQUE CHECK (octet_length(token_hash) = 32),
    table_no   integer     NOT NULL CHECK (table_no BETWEEN 1 AND 9999),
    issued_by  text        NOT NULL,
    issued_at  timestamptz NOT NULL DEFAULT now(),
    revoked_at timestamptz
);

CREATE INDEX judge_tokens_table_idx ON judge_tokens (table_no);
