-- Read model `standings` (2/2): the ranked standings table of every competition.
CREATE TABLE competition_standings (
    competition_id uuid    NOT NULL,
    entrant        text    NOT NULL,
    place          integer NOT NULL,
    rank           integer NOT NULL,
    row            jsonb   NOT NULL,
    PRIMARY KEY (competition_id, entrant)
);

CREATE INDEX competition_standings_rank_idx ON competition_standings (competition_id, rank);
