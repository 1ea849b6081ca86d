-- Read model `standings` (1/2): one row per competition with its document (guide, entrants,
-- rounds, bracket, calls, protests, placings), folded from the competition's stream.
CREATE TABLE competition_view (
    competition_id uuid        PRIMARY KEY,
    name           text        NOT NULL,
    format         text        NOT NULL,
    finished       boolean     NOT NULL,
    version        bigint      NOT NULL,
    position       bigint      NOT NULL,
    doc            jsonb       NOT NULL
);

INSERT INTO projection_tracking (name, position) VALUES ('standings', 0)
ON CONFLICT (name) DO NOTHING;
