-- The remote live relay (issue 51, decision 0195): when the federation last heard from each
-- venue (every kept push, a heartbeat's included: the venue's uplink pushes at least every
-- 30 s). A venue not heard from for the relay's offline bound is shown to remote spectators
-- as "offline since <seen_at>". One row per venue, overwritten: not a record, a liveness mark.
CREATE TABLE venue_seen (
    venue_id uuid        PRIMARY KEY REFERENCES venues (venue_id),
    seen_at  timestamptz NOT NULL
);
