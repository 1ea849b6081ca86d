-- The public archive (issue 49, point 4; decision 0172): what the kept venue events
-- (venue_events, decision 0165) say, folded with the venue's own folds. A projection:
-- `tableside.federation.archive.project` rebuilds every row from venue_events.
--
-- One row per competition of a venue: the document exactly as the venue publishes it
-- (`competition_doc`), and what the search and the season's lists need beside it.
CREATE TABLE archive_competitions (
    venue_id    uuid    NOT NULL,
    stream_id   uuid    NOT NULL,
    version     bigint  NOT NULL,
    position    bigint  NOT NULL,
    name        text    NOT NULL,
    sport       text    NOT NULL,
    discipline  text    NOT NULL,
    age_class   text    NOT NULL,
    season      integer NOT NULL,
    finished_on date,
    doc         jsonb   NOT NULL,
    -- its standings rows as the venue publishes them (`competition.docs.standings_rows`)
    standings   jsonb   NOT NULL,
    -- a finished competition's placings and played matches by entrant, in order (decision 0170)
    ranked      jsonb   NOT NULL,
    PRIMARY KEY (venue_id, stream_id)
);

CREATE INDEX archive_competitions_season_idx ON archive_competitions (season, sport, discipline, age_class);

-- Each member of each entrant: the name and club the venue entered, and the federation id
-- the TD gave (or ''), for the search by player and club and for suggested links.
CREATE TABLE archive_entrants (
    venue_id       uuid     NOT NULL,
    stream_id      uuid     NOT NULL,
    entrant_id     text     NOT NULL,
    member         smallint NOT NULL,
    name           text     NOT NULL,
    skeleton       text     NOT NULL,
    club           text     NOT NULL,
    stated_id      text     NOT NULL,
    PRIMARY KEY (venue_id, stream_id, entrant_id, member)
);

CREATE INDEX archive_entrants_skeleton_idx ON archive_entrants (skeleton);

-- How far the projection has read each venue's kept events.
CREATE TABLE archive_tracking (
    venue_id uuid   PRIMARY KEY,
    position bigint NOT NULL
);

-- The federation's grading of an event for the points table (decision 0170); `open` when
-- no row says otherwise.
CREATE TABLE event_levels (
    venue_id  uuid        NOT NULL,
    stream_id uuid        NOT NULL,
    level     text        NOT NULL CHECK (level IN ('championship', 'ranking', 'open')),
    set_by    text        NOT NULL,
    set_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (venue_id, stream_id)
);
