"""The registrar's routes (decision 0171): players added and renamed, a venue's entrants
linked to them (the suggestions offered, one confirmed), an event's level set; each change
recomputes the season's lists it touches. Signed in as the federation's staff (a `ts_`
session of `staff/accounts.py` on the federation's own tables: a registrar or the admin);
bodies read strictly (`web/bodies.StrictRequest`). The federation's app mounts
`registrar_router()` beside the public one."""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

import msgspec
from litestar import Request, Router, get, post, put
from litestar.exceptions import NotFoundException
from litestar.params import FromPath

from tableside.federation.ranking.levels import NoSuchEvent, set_level
from tableside.federation.ranking.project import list_keys_of, recompute
from tableside.federation.ranking.rules.results import Level
from tableside.web.auth import bearer, require, resolve
from tableside.web.bodies import StrictRequest
from tableside.web.problems import coded

from . import links, players

STAFF = ("registrar", "federation_admin")
Text = Annotated[str, msgspec.Meta(max_length=200)]


class NewPlayer(msgspec.Struct, forbid_unknown_fields=True):
    """A player for the register."""

    name: Annotated[str, msgspec.Meta(min_length=1, max_length=200)]
    club: Text = ""
    licence: Annotated[str, msgspec.Meta(max_length=40)] = ""
    player_class: players.PlayerClass = "main"


class NewName(msgspec.Struct, forbid_unknown_fields=True):
    """A player's new name."""

    name: Annotated[str, msgspec.Meta(min_length=1, max_length=200)]


class Link(msgspec.Struct, forbid_unknown_fields=True):
    """One member of one entrant of one venue's competition, and the player it is."""

    venue_id: UUID
    competition_id: UUID
    entrant_id: Annotated[str, msgspec.Meta(min_length=1, max_length=100)]
    member: Annotated[int, msgspec.Meta(ge=0, le=20)]
    federation_id: Annotated[int, msgspec.Meta(ge=1)]


class NewLevel(msgspec.Struct, forbid_unknown_fields=True):
    """An event's level for the points table."""

    level: Level


async def _staff(request: Request) -> str:
    """The signed-in registrar's (or admin's) name: 401 without a session, 403 for another role."""
    pool = request.app.state.federation.pool
    return require(await resolve(pool, bearer(request)), *STAFF).name


@post("/api/federation/register/players", summary="Add a player to the register")
async def add_player(request: Request, data: NewPlayer) -> dict[str, Any]:
    by = await _staff(request)
    async with request.app.state.federation.pool.acquire() as conn:
        made = await players.add_player(
            conn, data.name, by, data.club, data.licence, data.player_class
        )
    return msgspec.to_builtins(made)


@post(
    "/api/federation/register/players/{federation_id:int}/name",
    summary="Rename a player",
    status_code=200,
)
async def rename_player(
    request: Request, federation_id: FromPath[int], data: NewName
) -> dict[str, Any]:
    by = await _staff(request)
    async with request.app.state.federation.pool.acquire() as conn:
        try:
            renamed = await players.rename(conn, federation_id, data.name, by)
        except players.NoSuchPlayer:
            raise NotFoundException(extra=coded("register_no_player", id=federation_id)) from None
        return {
            **msgspec.to_builtins(renamed),
            "names": await players.names_of(conn, federation_id),
        }


@get(
    "/api/federation/register/suggestions/{venue_id:uuid}", summary="Entrants the register may hold"
)
async def suggestions(request: Request, venue_id: FromPath[UUID]) -> dict[str, Any]:
    await _staff(request)
    async with request.app.state.federation.pool.acquire() as conn:
        return {"suggestions": msgspec.to_builtins(await links.suggestions(conn, venue_id))}


@post("/api/federation/register/links", summary="Confirm an entrant is a register player")
async def confirm_link(request: Request, data: Link) -> dict[str, Any]:
    by = await _staff(request)
    async with request.app.state.federation.pool.acquire() as conn:
        await links.confirm(
            conn,
            data.venue_id,
            data.competition_id,
            data.entrant_id,
            data.member,
            data.federation_id,
            by,
        )
        lists = await recompute(
            conn, await list_keys_of(conn, data.venue_id, [data.competition_id])
        )
    return {"linked": msgspec.to_builtins(data), "lists": lists}


@put("/api/federation/levels/{venue_id:uuid}/{stream_id:uuid}", summary="Set an event's level")
async def put_level(
    request: Request, venue_id: FromPath[UUID], stream_id: FromPath[UUID], data: NewLevel
) -> dict[str, Any]:
    by = await _staff(request)
    async with request.app.state.federation.pool.acquire() as conn:
        try:
            await set_level(conn, venue_id, stream_id, data.level, by)
        except NoSuchEvent:
            raise NotFoundException(extra=coded("archive_no_event")) from None
        lists = await recompute(conn, await list_keys_of(conn, venue_id, [stream_id]))
    return {"level": data.level, "lists": lists}


def registrar_router() -> Router:
    """The registrar's routes, bodies read strictly."""
    return Router(
        path="/",
        route_handlers=[add_player, rename_player, suggestions, confirm_link, put_level],
        request_class=StrictRequest,
    )
