"""The archive's projection (decision 0172): each venue's kept events after the tracked
position, the competitions they touch folded again from all their kept events, their rows
written with the tracking in one transaction; the TD's links made from the entries. Rebuilt
from nothing by `rebuild`: the archive is a function of the kept events."""

from __future__ import annotations

import json
from uuid import UUID

import asyncpg

from tableside.competition.docs import standings_rows
from tableside.eventlog import EventRegistry
from tableside.federation.ranking.project import LOCK_WAIT, list_keys_of, recompute
from tableside.federation.register.links import link_stated

from .competitions import EVENT_NAMES, Folded, facts, fold_competition, members, ranked_facts
from .kept import kept_after, kept_stream, venues

ARCHIVE_TABLES = ("archive_competitions", "archive_entrants", "archive_tracking")


async def catch_up(conn: asyncpg.Connection, registry: EventRegistry, venue_id: UUID) -> list[UUID]:
    """Project the venue's kept events not yet read; the competitions that changed."""
    changed: list[UUID] = []
    while True:
        async with conn.transaction():
            # One node at a time per venue (several stateless nodes share the database),
            # waiting at most LOCK_WAIT.
            await conn.execute(f"SET LOCAL lock_timeout = '{LOCK_WAIT}'")
            await conn.execute(
                "SELECT pg_advisory_xact_lock(hashtext('archive:' || $1))", str(venue_id)
            )
            tracked = await conn.fetchval(
                "SELECT position FROM archive_tracking WHERE venue_id = $1 FOR UPDATE", venue_id
            )
            batch = await kept_after(conn, venue_id, tracked or 0)
            if not batch:
                return changed
            touched = list(dict.fromkeys(r.stream_id for r in batch if r.type_name in EVENT_NAMES))
            for stream_id in touched:
                await _write(
                    conn,
                    venue_id,
                    fold_competition(registry, await kept_stream(conn, venue_id, stream_id)),
                )
            await conn.execute(
                "INSERT INTO archive_tracking (venue_id, position) VALUES ($1, $2) ON CONFLICT"
                " (venue_id) DO UPDATE SET position = excluded.position",
                venue_id,
                batch[-1].position,
            )
        changed += [s for s in touched if s not in changed]


async def refresh(
    conn: asyncpg.Connection, registry: EventRegistry, venue_id: UUID
) -> dict[str, int]:
    """What the federation calls once it kept a push of the venue: the archive caught up, then
    every season's list a changed competition belongs to recomputed; each list → editions."""
    changed = await catch_up(conn, registry, venue_id)
    if not changed:
        return {}
    return await recompute(conn, await list_keys_of(conn, venue_id, changed))


async def catch_up_all(conn: asyncpg.Connection, registry: EventRegistry) -> dict[UUID, list[UUID]]:
    """Every enrolled venue caught up; each venue → its competitions that changed."""
    return {venue: await catch_up(conn, registry, venue) for venue in await venues(conn)}


async def rebuild(conn: asyncpg.Connection, registry: EventRegistry) -> dict[UUID, list[UUID]]:
    """The archive from nothing (the registrars' links and the levels stay: they are not
    derived from the events, except the TD's, which are made again)."""
    async with conn.transaction():
        for table in ARCHIVE_TABLES:
            await conn.execute(f"DELETE FROM {table}")
    return await catch_up_all(conn, registry)


async def _write(conn: asyncpg.Connection, venue_id: UUID, folded: Folded) -> None:
    said = facts(folded)
    await conn.execute(
        "INSERT INTO archive_competitions (venue_id, stream_id, version, position, name, sport,"
        " discipline, age_class, season, finished_on, doc, standings, ranked) VALUES ($1, $2,"
        " $3, $4, $5, $6, $7, $8, $9, $10::text::date, $11::jsonb, $12::jsonb, $13::jsonb)"
        " ON CONFLICT (venue_id, stream_id) DO UPDATE SET version = excluded.version,"
        " position = excluded.position, name = excluded.name,"
        " sport = excluded.sport, discipline = excluded.discipline, age_class ="
        " excluded.age_class, season = excluded.season, finished_on = excluded.finished_on,"
        " doc = excluded.doc, standings = excluded.standings, ranked = excluded.ranked",
        venue_id,
        folded.stream_id,
        folded.version,
        folded.position,
        said["name"],
        said["sport"],
        said["discipline"],
        said["age_class"],
        said["season"],
        folded.finished_on,
        json.dumps(folded.doc),
        json.dumps(standings_rows(folded.state)),
        json.dumps(ranked_facts(folded.state)),
    )
    await conn.execute(
        "DELETE FROM archive_entrants WHERE venue_id = $1 AND stream_id = $2",
        venue_id,
        folded.stream_id,
    )
    await conn.executemany(
        "INSERT INTO archive_entrants (venue_id, stream_id, entrant_id, member, name, skeleton,"
        " club, stated_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        [
            (
                venue_id,
                folded.stream_id,
                m.entrant_id,
                m.member,
                m.name,
                m.skeleton,
                m.club,
                m.stated_id,
            )
            for m in members(folded.state)
        ],
    )
    await link_stated(conn, venue_id, folded.stream_id)
