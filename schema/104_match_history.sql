-- Read model `history`: every event of every match as a plain-language line, in order.
-- Corrected entries stay (history is what happened); the correction is its own line.
CREATE TABLE match_history (
    match_id    uuid        NOT NULL,
    version     bigint      NOT NULL,
    position    bigint      NOT NULL UNIQUE,
    type        text        NOT NULL,
    rule        text        NOT NULL,
    text        text        NOT NULL,
    recorded_at timestamptz NOT NULL,
    PRIMARY KEY (match_id, version)
);
