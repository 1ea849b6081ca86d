-- Read model `protocol`: the match protocol (players, games, opening, remarks, penalties,
-- corrections, signatures) as the engine's fold sees it after corrections.
CREATE TABLE match_protocol (
    match_id   uuid        PRIMARY KEY,
    version    bigint      NOT NULL,
    position   bigint      NOT NULL,
    signed     boolean     NOT NULL,
    updated_at timestamptz NOT NULL,
    doc        jsonb       NOT NULL
);
