-- Read model `backgammon`: one row per backgammon match (KSI) — players, length, score,
-- status, winner, times — folded from its stream by the tail loop's backgammon consumer.
CREATE TABLE backgammon_matches (
    match_id   uuid        PRIMARY KEY,
    player_a   text        NOT NULL,
    player_b   text        NOT NULL,
    length     integer     NOT NULL,
    score_a    integer     NOT NULL,
    score_b    integer     NOT NULL,
    games      integer     NOT NULL,
    status     text        NOT NULL CHECK (status IN ('playing', 'over')),
    winner     text        NOT NULL,
    confirmed  boolean     NOT NULL,
    version    bigint      NOT NULL,
    position   bigint      NOT NULL,
    started_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
);

CREATE INDEX backgammon_matches_position_idx ON backgammon_matches (position DESC);

INSERT INTO projection_tracking (name, position) VALUES ('backgammon', 0)
ON CONFLICT (name) DO NOTHING;
