-- The season's ranking lists (issue 49, point 6; decision 0170): every edition of every list,
-- as `tableside.federation.ranking.project` computed it from archive_competitions, the
-- register's links and the events' levels. A projection: recomputed, never edited by hand.
--   list_key   season/sport/discipline/class, e.g. 2026/korona/mens_singles/main
--   body       the edition (both views and the changes) as JSON
CREATE TABLE ranking_editions (
    list_key     text    NOT NULL,
    number       integer NOT NULL CHECK (number >= 1),
    published_on date    NOT NULL,
    venue_id     uuid    NOT NULL,
    stream_id    uuid    NOT NULL,
    body         jsonb   NOT NULL,
    PRIMARY KEY (list_key, number)
);
