"""A venue's entrant linked to a register player (decision 0171): by the TD at registration
(the entry's `federation_id`, `td`), or suggested here and confirmed by a registrar
(`confirmed`). A suggestion is only that — a register player whose name has the entrant's
UTS #39 skeleton — and links nobody until a person confirms it: never merged by spelling."""

from __future__ import annotations

from uuid import UUID

import asyncpg
import msgspec

from tableside.rule_error import RuleError

from .players import NoSuchPlayer

RULE = "decision 0171"


class Candidate(msgspec.Struct, frozen=True):
    """A register player a suggestion offers."""

    federation_id: int
    name: str
    club: str


class Suggestion(msgspec.Struct, frozen=True):
    """An unlinked member of an entrant, and the register players it may be."""

    competition_id: UUID
    entrant_id: str
    member: int
    name: str
    club: str
    candidates: tuple[Candidate, ...]


class LinkRefused(RuleError):
    """A link the register cannot make: no such entrant member, or one already linked."""

    def __init__(self, message: str, code: str, **params: str) -> None:
        super().__init__(RULE, message, "entrant_id", code, params)


async def links_of(conn: asyncpg.Connection, venue_id: UUID) -> dict[tuple[UUID, str, int], int]:
    """Every link of the venue's entrants: (competition, entrant, member) → federation id."""
    rows = await conn.fetch(
        "SELECT competition_id, entrant_id, member, federation_id FROM register_links"
        " WHERE venue_id = $1",
        venue_id,
    )
    return {(r["competition_id"], r["entrant_id"], r["member"]): r["federation_id"] for r in rows}


async def link_stated(conn: asyncpg.Connection, venue_id: UUID, competition_id: UUID) -> int:
    """The TD's links: each member whose entry names a federation id the register holds;
    how many were new. An id the register does not hold links nobody (the archive shows it)."""
    status = await conn.execute(
        "INSERT INTO register_links (venue_id, competition_id, entrant_id, member, federation_id,"
        " how, linked_by) SELECT e.venue_id, e.stream_id, e.entrant_id, e.member,"
        " p.federation_id, 'td', 'venue' FROM archive_entrants e JOIN register_players p"
        " ON e.stated_id <> '' AND p.federation_id = e.stated_id::bigint"
        " WHERE e.venue_id = $1 AND e.stream_id = $2 ON CONFLICT DO NOTHING",
        venue_id,
        competition_id,
    )
    return int(status.split()[-1])


async def suggestions(conn: asyncpg.Connection, venue_id: UUID) -> list[Suggestion]:
    """Each unlinked member of the venue's entrants with register players of its skeleton."""
    rows = await conn.fetch(
        "SELECT e.stream_id, e.entrant_id, e.member, e.name, e.club, p.federation_id,"
        " p.name AS p_name, p.club AS p_club FROM archive_entrants e"
        " JOIN register_players p ON p.skeleton = e.skeleton"
        " LEFT JOIN register_links l ON (l.venue_id, l.competition_id, l.entrant_id, l.member)"
        " = (e.venue_id, e.stream_id, e.entrant_id, e.member)"
        " WHERE e.venue_id = $1 AND l.federation_id IS NULL"
        " ORDER BY e.stream_id, e.entrant_id, e.member, p.federation_id",
        venue_id,
    )
    found: dict[tuple, Suggestion] = {}
    for r in rows:
        key = (r["stream_id"], r["entrant_id"], r["member"])
        candidate = Candidate(r["federation_id"], r["p_name"], r["p_club"])
        held = found.get(key)
        found[key] = (
            msgspec.structs.replace(held, candidates=(*held.candidates, candidate))
            if held
            else Suggestion(*key, r["name"], r["club"], (candidate,))
        )
    return list(found.values())


async def confirm(
    conn: asyncpg.Connection,
    venue_id: UUID,
    competition_id: UUID,
    entrant_id: str,
    member: int,
    federation_id: int,
    by: str,
) -> None:
    """A registrar links one member of an entrant to a register player."""
    async with conn.transaction():
        known = await conn.fetchval(
            "SELECT 1 FROM archive_entrants WHERE (venue_id, stream_id, entrant_id, member)"
            " = ($1, $2, $3, $4)",
            venue_id,
            competition_id,
            entrant_id,
            member,
        )
        if known is None:
            message = f"no entrant {entrant_id!r} (member {member}) in that competition"
            raise LinkRefused(message, "register_no_entrant", entrant=entrant_id)
        if not await conn.fetchval(
            "SELECT 1 FROM register_players WHERE federation_id = $1", federation_id
        ):
            raise NoSuchPlayer(federation_id)
        held = await conn.fetchval(
            "INSERT INTO register_links (venue_id, competition_id, entrant_id, member,"
            " federation_id, how, linked_by) VALUES ($1, $2, $3, $4, $5, 'confirmed', $6)"
            " ON CONFLICT (venue_id, competition_id, entrant_id, member) DO UPDATE SET"
            " federation_id = register_links.federation_id RETURNING federation_id",
            venue_id,
            competition_id,
            entrant_id,
            member,
            federation_id,
            by,
        )
        if held != federation_id:
            message = f"entrant {entrant_id!r} is already linked to player {held}"
            raise LinkRefused(message, "register_already_linked", entrant=entrant_id, id=str(held))
