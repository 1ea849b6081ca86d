"""What the public pages read (decision 0174): the archive's competitions of every venue, one
competition as its venue publishes it, the register's players across events, the season's
lists. Search is by plain substring (`strpos`, no pattern a visitor could write), bounded."""

from __future__ import annotations

import json
from typing import Any
from uuid import UUID

import asyncpg

from tableside.competition.matchflow import match_stream

LIMIT = 100
_MATCHES = "strpos(lower({col}), lower($1)) > 0"
_EVENT_COLUMNS = (
    "c.venue_id, v.name AS venue, c.stream_id, c.name, c.sport, c.discipline, c.age_class,"
    " c.season, c.finished_on::text AS finished_on, (c.doc->>'finished')::boolean AS finished"
)


async def events(conn: asyncpg.Connection, q: str = "", season: int | None = None) -> list[dict]:
    """Every archived competition matching `q` (its name, its venue's, an entrant's or a
    club's) and `season`; live ones first, then the newest."""
    entrant = " OR ".join(_MATCHES.format(col=c) for c in ("e.name", "e.club"))
    rows = await conn.fetch(
        f"SELECT {_EVENT_COLUMNS} FROM archive_competitions c JOIN venues v USING (venue_id)"
        f" WHERE ($1 = '' OR {_MATCHES.format(col='c.name')} OR {_MATCHES.format(col='v.name')}"
        " OR EXISTS (SELECT 1 FROM archive_entrants e WHERE e.venue_id = c.venue_id AND"
        f" e.stream_id = c.stream_id AND ({entrant}))) AND ($2::int IS NULL OR c.season = $2)"
        " ORDER BY c.finished_on DESC NULLS FIRST, c.name LIMIT $3",
        q,
        season,
        LIMIT,
    )
    return [_event_row(r) for r in rows]


async def seasons(conn: asyncpg.Connection) -> list[int]:
    """The seasons the archive holds, newest first."""
    rows = await conn.fetch("SELECT DISTINCT season FROM archive_competitions ORDER BY 1 DESC")
    return [r["season"] for r in rows]


async def event(conn: asyncpg.Connection, venue_id: UUID, stream_id: UUID) -> dict | None:
    """One competition: its document and standings as the venue publishes them, the venue's
    key (its receipts are checked against it) and alarms, each entrant's register players."""
    row = await conn.fetchrow(
        f"SELECT {_EVENT_COLUMNS}, c.doc, c.standings, encode(v.public_key, 'hex') AS venue_key"
        " FROM archive_competitions c JOIN venues v USING (venue_id)"
        " WHERE c.venue_id = $1 AND c.stream_id = $2",
        venue_id,
        stream_id,
    )
    if row is None:
        return None
    links = await conn.fetch(
        "SELECT l.entrant_id, l.member, l.federation_id, p.name FROM register_links l JOIN"
        " register_players p USING (federation_id) WHERE l.venue_id = $1 AND l.competition_id"
        " = $2 ORDER BY l.entrant_id, l.member",
        venue_id,
        stream_id,
    )
    alarms = await conn.fetchval("SELECT count(*) FROM venue_alarms WHERE venue_id = $1", venue_id)
    doc = json.loads(row["doc"])
    return {
        **_event_row(row),
        "venue_key": row["venue_key"],
        "alarms": alarms,
        "doc": doc,
        "matches": await _match_streams(conn, venue_id, stream_id, list(doc.get("results", {}))),
        "standings": json.loads(row["standings"]),
        "players": [
            {"entrant": r["entrant_id"], "federation_id": r["federation_id"], "name": r["name"]}
            for r in links
        ],
    }


async def players(conn: asyncpg.Connection, q: str) -> list[dict]:
    """Register players whose name or club holds `q`."""
    if not q:
        return []
    rows = await conn.fetch(
        "SELECT federation_id, name, club, class FROM register_players WHERE"
        f" {_MATCHES.format(col='name')} OR {_MATCHES.format(col='club')}"
        " ORDER BY name, federation_id LIMIT $2",
        q,
        LIMIT,
    )
    return [dict(r) for r in rows]


async def player(conn: asyncpg.Connection, federation_id: int) -> dict | None:
    """A player's page: the register's row, every name carried, every event linked, with
    the place held there."""
    row = await conn.fetchrow(
        "SELECT federation_id, name, club, licence, class FROM register_players"
        " WHERE federation_id = $1",
        federation_id,
    )
    if row is None:
        return None
    names = await conn.fetch(
        "SELECT name FROM register_names WHERE federation_id = $1 ORDER BY seq", federation_id
    )
    linked = await conn.fetch(
        f"SELECT {_EVENT_COLUMNS}, l.entrant_id, c.ranked FROM register_links l"
        " JOIN archive_competitions c ON (c.venue_id, c.stream_id) = (l.venue_id, l.competition_id)"
        " JOIN venues v ON v.venue_id = c.venue_id WHERE l.federation_id = $1"
        " ORDER BY c.finished_on DESC NULLS FIRST, c.name",
        federation_id,
    )
    return {
        **dict(row),
        "names": [r["name"] for r in names],
        "events": [
            {**_event_row(r), "place": _place(r["ranked"], r["entrant_id"])} for r in linked
        ],
    }


async def rankings(conn: asyncpg.Connection) -> list[dict]:
    """Every season's list: its key and its newest edition's number and date."""
    rows = await conn.fetch(
        "SELECT DISTINCT ON (list_key) list_key AS key, number, published_on::text AS published_on"
        " FROM ranking_editions ORDER BY list_key DESC, number DESC"
    )
    return [dict(r) for r in rows]


async def ranking(conn: asyncpg.Connection, key: str, number: int | None = None) -> dict | None:
    """One list: the edition asked for (else the newest) with every player's name, and the
    dates of all its editions."""
    editions = await conn.fetch(
        "SELECT e.number, e.published_on::text AS published_on, c.name AS event FROM"
        " ranking_editions e LEFT JOIN archive_competitions c USING (venue_id, stream_id)"
        " WHERE e.list_key = $1 ORDER BY e.number",
        key,
    )
    if not editions:
        return None
    chosen = number or editions[-1]["number"]
    body = await conn.fetchval(
        "SELECT body FROM ranking_editions WHERE list_key = $1 AND number = $2", key, chosen
    )
    if body is None:
        return None
    edition = json.loads(body)
    ids = {int(r["player"]) for r in edition["points"] + edition["rating"]}
    named = await conn.fetch(
        "SELECT federation_id, name, club FROM register_players WHERE federation_id = ANY($1)",
        list(ids),
    )
    return {
        "key": key,
        "edition": edition,
        "players": {str(r["federation_id"]): {"name": r["name"], "club": r["club"]} for r in named},
        "editions": [dict(r) for r in editions],
    }


async def _match_streams(
    conn: asyncpg.Connection, venue_id: UUID, competition: UUID, match_ids: list[str]
) -> dict[str, str]:
    """Each of the competition's matches whose own stream the federation keeps (a match played
    at a table; one recorded at the desk has none): match id → its stream, for its files."""
    streams = {str(match_stream(competition, m)): m for m in match_ids}
    rows = await conn.fetch(
        "SELECT stream_id FROM venue_events WHERE venue_id = $1 AND version = 1"
        " AND stream_id = ANY($2::uuid[])",
        venue_id,
        list(streams),
    )
    return {streams[str(r["stream_id"])]: str(r["stream_id"]) for r in rows}


def _event_row(row: Any) -> dict:
    keys = ("venue", "name", "sport", "discipline", "age_class", "season", "finished_on")
    return {
        "venue_id": str(row["venue_id"]),
        "stream_id": str(row["stream_id"]),
        **{k: row[k] for k in keys},
        "finished": bool(row["finished"]),
    }


def _place(ranked: str, entrant: str) -> int | None:
    return next((p for p, e in json.loads(ranked)["placings"] if e == entrant), None)
