-- Read model `tables`: what each table is playing now (the latest match scheduled on it).
CREATE TABLE table_overview (
    table_no       integer     PRIMARY KEY,
    match_id       uuid        NOT NULL,
    competition_id text,
    status         text        NOT NULL,
    position       bigint      NOT NULL,
    updated_at     timestamptz NOT NULL,
    doc            jsonb       NOT NULL
);

CREATE INDEX table_overview_competition_idx ON table_overview (competition_id);
