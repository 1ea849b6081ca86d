-- Read model `live`: the live state of every match (score, game, turn, pucks), one row each.
CREATE TABLE match_live (
    match_id       uuid        PRIMARY KEY,
    table_no       integer,
    competition_id text,
    status         text        NOT NULL,
    version        bigint      NOT NULL,
    position       bigint      NOT NULL,
    updated_at     timestamptz NOT NULL,
    doc            jsonb       NOT NULL
);

CREATE INDEX match_live_table_idx ON match_live (table_no);
CREATE INDEX match_live_competition_idx ON match_live (competition_id);
