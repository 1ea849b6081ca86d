"""The season's lists as a projection (decision 0170): the finished competitions of the
archive (verified kept events only, decisions 0165, 0172), their entrants named by the
register's links (decision 0171), each event's level; every edition computed by the pure
method (`rules/`) and written whole, list by list. Recomputable at any time from those
tables alone: nothing here is entered by hand but the links and the levels."""

from __future__ import annotations

import json
from collections.abc import Iterable
from uuid import UUID

import asyncpg
import msgspec

from .rules.results import EventResult, Placing, RatedMatch
from .rules.season import Edition, season_list

KEY_SQL = "season::text || '/' || sport || '/' || discipline || '/' || age_class"
Links = dict[tuple[UUID, UUID, str], tuple[str, ...]]
LOCK_WAIT = "10s"


async def recompute(conn: asyncpg.Connection, keys: Iterable[str] | None = None) -> dict[str, int]:
    """Every list (or those of `keys`) computed again; each list → its number of editions."""
    rows = await conn.fetch(
        f"SELECT venue_id, stream_id, name, finished_on::text AS held_on, {KEY_SQL} AS key,"
        " ranked, coalesce(l.level, 'open') AS level FROM archive_competitions c"
        " LEFT JOIN event_levels l USING (venue_id, stream_id) WHERE finished_on IS NOT NULL",
    )
    wanted = set(keys) if keys is not None else {row["key"] for row in rows}
    links = await _links(conn)
    counts = {}
    async with conn.transaction():
        # Several stateless nodes may recompute one list at once: one at a time per list
        # (its editions are replaced whole), and never waiting longer than LOCK_WAIT.
        await conn.execute(f"SET LOCAL lock_timeout = '{LOCK_WAIT}'")
        for key in sorted(wanted):
            await conn.execute("SELECT pg_advisory_xact_lock(hashtext('ranking:' || $1))", key)
            events = [_event(row, links) for row in rows if row["key"] == key]
            editions = season_list(events)
            await _replace(conn, key, editions)
            counts[key] = len(editions)
    return counts


async def list_keys_of(
    conn: asyncpg.Connection, venue_id: UUID, streams: Iterable[UUID]
) -> set[str]:
    """The lists the given competitions belong to."""
    rows = await conn.fetch(
        f"SELECT {KEY_SQL} AS key FROM archive_competitions WHERE venue_id = $1"
        " AND stream_id = ANY($2::uuid[])",
        venue_id,
        list(streams),
    )
    return {row["key"] for row in rows}


async def _links(conn: asyncpg.Connection) -> Links:
    """(venue, competition, entrant) → its members' federation ids, in member order."""
    rows = await conn.fetch(
        "SELECT venue_id, competition_id, entrant_id, member, federation_id FROM register_links"
        " ORDER BY venue_id, competition_id, entrant_id, member"
    )
    members: dict[tuple[UUID, UUID, str], list[str]] = {}
    for r in rows:
        members.setdefault((r["venue_id"], r["competition_id"], r["entrant_id"]), []).append(
            str(r["federation_id"])
        )
    return {key: tuple(ids) for key, ids in members.items()}


def _event(row: asyncpg.Record, links: Links) -> EventResult:
    """One finished competition by federation ids: an entrant none of whose members is linked
    is not placed; a match counts only when every player in it is linked."""
    ranked = json.loads(row["ranked"])
    venue, stream = row["venue_id"], row["stream_id"]

    def ids(entrant: str) -> tuple[str, ...]:
        return links.get((venue, stream, entrant), ())

    placings = tuple(Placing(place, ids(e)) for place, e in ranked["placings"] if ids(e))
    matches = tuple(
        RatedMatch(match_id, ids(a), ids(b), winner)
        for match_id, a, b, winner in ranked["matches"]
        if len(ids(a)) == ranked["members"][a] and len(ids(b)) == ranked["members"][b]
    )
    return EventResult(
        f"{venue}/{stream}", row["name"], row["held_on"], row["level"], placings, matches
    )


async def _replace(conn: asyncpg.Connection, key: str, editions: tuple[Edition, ...]) -> None:
    await conn.execute("DELETE FROM ranking_editions WHERE list_key = $1", key)
    await conn.executemany(
        "INSERT INTO ranking_editions (list_key, number, published_on, venue_id, stream_id, body)"
        " VALUES ($1, $2, $3::text::date, $4, $5, $6::jsonb)",
        [
            (
                key,
                e.number,
                e.published_on,
                *map(UUID, e.event_id.split("/")),
                msgspec.json.encode(e).decode(),
            )
            for e in editions
        ],
    )
