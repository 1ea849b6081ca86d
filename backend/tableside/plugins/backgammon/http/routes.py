"""Backgammon endpoints: create a match, post a command, read the state and the legal plays,
export .mat.

Commands are the engine's (`tableside.disciplines.backgammon.commands`, tagged by `type`);
the TD (head judge or secretary) records any of them, the device of the match's table (its
table judge token: the players or the monitor) what happens at the board (`access.py`).
A match created on a table holds it in the hall like any match (409 when it is busy).
"""

from __future__ import annotations

import uuid
from functools import partial
from typing import Annotated, Any
from uuid import UUID

import anyio.to_thread
import msgspec
from litestar import Request, Response, get, post
from litestar.datastructures import State
from litestar.exceptions import HTTPException
from litestar.params import FromPath, JSONBody
from litestar.params import Parameter as PathParameter

from tableside.competition.service import CompetitionNotFound
from tableside.disciplines.backgammon import commands as c
from tableside.disciplines.backgammon.decide_officials import jurors_of_event
from tableside.disciplines.backgammon.errors import RuleViolation
from tableside.disciplines.backgammon.mat import MatFormatError, export_mat
from tableside.disciplines.backgammon.state import MOVE, MatchState, mine
from tableside.disciplines.backgammon.steps import move_orders
from tableside.disciplines.backgammon.view import board_doc
from tableside.eventlog.digest import command_digest
from tableside.match.http.command_routes import command_caller, command_meta, store_command
from tableside.match.http.dto import CommandResponse
from tableside.match.http.responses import stored_response
from tableside.plugins.backgammon.competition_link import competition_of, correction_bounds
from tableside.plugins.backgammon.http.access import (
    STAFF,
    TABLE_DEVICE,
    authorizer,
    roles_for,
    undo_checker,
    watchable,
)
from tableside.plugins.backgammon.http.people import event_people
from tableside.plugins.backgammon.service import BackgammonService
from tableside.web.auth import Principal
from tableside.web.context import Context, context
from tableside.web.downloads import attachment
from tableside.web.guards import signed_in
from tableside.web.problems import coded, language
from tableside.web.words import refusal

MATCH_IDS = uuid.UUID("a1f3c9d4-2b7e-4f10-8c65-3d9e0b7a4c21")  # uuid5 namespace for match ids


class CreateRequest(msgspec.Struct, forbid_unknown_fields=True):
    """A backgammon match to `length` points (KSI 4.5)."""

    command_id: UUID
    player_a: str
    player_b: str
    length: int
    match_id: UUID | None = None
    clock: bool = False
    penalty_to_score: bool = True
    series: bool = False
    table: int = 0  # the hall's table (0: none); its judge device records the match
    device_id: str = ""
    device_time: str = ""


class ImportRequest(msgspec.Struct, forbid_unknown_fields=True):
    """A match as Jellyfish .mat text (as GNU Backgammon exports it)."""

    command_id: UUID
    text: str
    match_id: UUID | None = None
    device_id: str = ""
    device_time: str = ""


class BgCommandRequest(msgspec.Struct, forbid_unknown_fields=True):
    """One engine command at the stream version the recorder saw."""

    command_id: UUID
    expected_version: int
    command: c.AnyCommand
    device_id: str = ""
    device_time: str = ""


def _service(state: State, ctx: Context) -> BackgammonService:
    service = getattr(state, "backgammon", None)
    if service is None or service.store is not ctx.store:
        service = BackgammonService(ctx.store)
        state.backgammon = service
    return service


def _meta(principal: Principal, device_id: str, device_time: str) -> dict[str, str]:
    return command_meta(principal, device_id, device_time) | {"discipline": "backgammon"}


@post(
    "/api/backgammon/matches",
    status_code=201,
    summary="Create a backgammon match (KSI)",
    guards=[signed_in(*STAFF, commands=True)],
)
async def create_bg_match(
    request: Request, state: State, data: JSONBody[CreateRequest]
) -> CommandResponse:
    ctx = context(state)
    principal = await command_caller(ctx, request, *STAFF)
    match_id = data.match_id or uuid.uuid5(MATCH_IDS, str(data.command_id))
    command = c.CreateMatch(
        match_id=str(match_id),
        player_a=data.player_a,
        player_b=data.player_b,
        length=data.length,
        clock=data.clock,
        penalty_to_score=data.penalty_to_score,
        series=data.series,
        table=data.table,
    )
    meta = _meta(principal, data.device_id, data.device_time)
    work = partial(
        _service(state, ctx).create, match_id, command, command_id=data.command_id, meta=meta
    )
    digest = command_digest("backgammon.create", match_id, command)
    # A table must be free in the hall, but a retry of a stored create is answered as stored.
    if (
        not data.table
        or ctx.hall is None
        or await stored_response(ctx.pool, data.command_id, digest)
    ):
        return await store_command(ctx, data.command_id, match_id, work, digest)
    async with ctx.hall(data.table) as conn:
        return await store_command(ctx, data.command_id, match_id, work, digest, conn)


@post(
    "/api/backgammon/matches/import",
    status_code=201,
    summary="Record a match from Jellyfish .mat text (each play checked by the engine)",
    guards=[signed_in(*STAFF, commands=True)],
)
async def import_bg_match(
    request: Request, state: State, data: JSONBody[ImportRequest]
) -> CommandResponse:
    ctx = context(state)
    principal = await command_caller(ctx, request, *STAFF)
    match_id = data.match_id or uuid.uuid5(MATCH_IDS, str(data.command_id))
    meta = _meta(principal, data.device_id, data.device_time) | {"source": "mat"}
    work = partial(
        _checked_import,
        _service(state, ctx),
        match_id,
        data.text,
        data.command_id,
        meta,
        language(request),
    )
    digest = command_digest("backgammon.import", match_id, data.text)
    return await store_command(ctx, data.command_id, match_id, work, digest)


def _checked_import(
    service: BackgammonService, match_id, text, command_id, meta, lang, digest=None
):
    """The import, or a refusal that says what it refuses in the reader's words: the text
    that is not a move or a point, or the rules' own refusal of a record, with its line."""
    try:
        return service.import_mat(match_id, text, command_id=command_id, meta=meta, digest=digest)
    except MatFormatError as exc:
        if exc.rule:  # a record the rules refuse: the paragraph and its words, line and game
            why = (refusal(lang, exc.code, exc.params) if lang != "en" else None) or exc.message
            where = {
                **exc.params,
                "line": exc.line,
                "game": exc.game,
                "why": why,
                "refused": exc.code,
            }
            raise RuleViolation(exc.rule, str(exc), "text", "mat_refused", where) from None
        figures = {"line": exc.line, **exc.params}
        raise HTTPException(
            status_code=422,
            detail=refusal("en", exc.code, figures) or f"Not a .mat match: {exc}",
            extra=coded(exc.code, **figures),
        ) from None


@post(
    "/api/backgammon/matches/{match_id:uuid}/commands",
    status_code=201,
    summary="Post a backgammon command",
    guards=[signed_in(*STAFF, TABLE_DEVICE, commands=True)],
)
async def post_bg_command(
    request: Request, state: State, match_id: FromPath[UUID], data: JSONBody[BgCommandRequest]
) -> CommandResponse:
    ctx = context(state)
    principal = await command_caller(ctx, request, *roles_for(data.command))
    command = data.command
    if isinstance(command, c.GiveRuling):  # the TD who rules is the one signed in (KSI 1.3.2)
        command = msgspec.structs.replace(command, td=principal.name)
    if isinstance(command, c.DecideAppeal) and not command.td:  # nor the one recording it
        command = msgspec.structs.replace(command, td=principal.name)
    if isinstance(command, c.DecideAppeal):  # the event's people, as it knows them (KSI 1.3.2)
        jury = jurors_of_event(command.jury, await event_people(ctx.pool))
        command = msgspec.structs.replace(command, jury=jury)
    if isinstance(command, c.CorrectResult):  # as the competition stands (KSI 4.6)
        command = await anyio.to_thread.run_sync(_as_it_stands, state, ctx, match_id, command)
    work = partial(
        _service(state, ctx).execute,
        match_id,
        command,
        expected_version=data.expected_version,
        command_id=data.command_id,
        meta=_meta(principal, data.device_id, data.device_time),
        authorize=authorizer(principal),
        undo_check=undo_checker(principal),
    )
    digest = command_digest("backgammon.command", match_id, data.command)
    return await store_command(ctx, data.command_id, match_id, work, digest)


def _as_it_stands(state: State, ctx: Context, match_id: UUID, command: c.CorrectResult):
    """A correction with its competition's facts (next round started, results published)."""
    stored = ctx.store.read(match_id)
    comp_id, competitions = competition_of(stored), getattr(state, "competitions", None)
    if comp_id is None or competitions is None:
        return command
    try:
        _, competition = competitions.service.state(comp_id)
    except CompetitionNotFound:
        return command
    return correction_bounds(command, stored, competition)


@get("/api/backgammon/matches/{match_id:uuid}", summary="A backgammon match's state")
async def get_bg_match(request: Request, state: State, match_id: FromPath[UUID]) -> dict[str, Any]:
    service = _service(state, context(state))
    match, version, _ = await anyio.to_thread.run_sync(service.history, match_id)
    await watchable(request, match)
    return {"version": version, "state": msgspec.to_builtins(match), "board": board_doc(match)}


def legal_orders(match: MatchState) -> dict[str, Any]:
    """The side to move, its dice and every order of single moves that makes a legal play
    (none when nobody is to move, or an illegal play waits for its answer, KSI 4.2.3)."""
    g = match.game
    if g.phase != MOVE or g.illegal or match.over:
        return {"side": "", "dice": [], "orders": []}
    me, opp = mine(match, g.turn)
    orders = move_orders(me, opp, g.dice)
    return {"side": g.turn, "dice": list(g.dice), "orders": [list(map(list, o)) for o in orders]}


@get(
    "/api/backgammon/matches/{match_id:uuid}/plays",
    summary="The legal plays for the dice on the board, as orders of single moves",
)
async def get_bg_plays(request: Request, state: State, match_id: FromPath[UUID]) -> dict[str, Any]:
    """Each order of single-die moves (own numbering, 25 bar, 0 off) that leaves a position a
    legal play leaves. `orders` is empty when no play is due (`side` "") or when no checker can
    move (`side` set: the play is the empty one)."""
    service = _service(state, context(state))
    match, version, _ = await anyio.to_thread.run_sync(service.history, match_id)
    await watchable(request, match)
    return {"version": version, **legal_orders(match)}


@get(
    "/api/backgammon/matches/{match_id:uuid}/at/{version:int}",
    summary="A backgammon match's board after a stored version (replay)",
)
async def get_bg_match_at(
    request: Request,
    state: State,
    match_id: FromPath[UUID],
    version: Annotated[int, PathParameter(ge=1, le=10**9)],
) -> dict[str, Any]:
    """Position, cube, score, turn and both clocks after the event stored at `version`."""
    service = _service(state, context(state))
    match, event = await anyio.to_thread.run_sync(service.at, match_id, version)
    latest, _, _ = await anyio.to_thread.run_sync(service.history, match_id)
    await watchable(request, latest)
    return {"event": msgspec.to_builtins(event), "board": board_doc(match)}


@get(
    "/api/backgammon/matches/{match_id:uuid}/match.mat",
    summary="The match as Jellyfish .mat text (GNU Backgammon imports it)",
)
async def get_bg_mat(request: Request, state: State, match_id: FromPath[UUID]) -> Response[bytes]:
    service = _service(state, context(state))
    match, _, events = await anyio.to_thread.run_sync(service.history, match_id)
    await watchable(request, match)
    text = export_mat(events).encode()
    return attachment(text, "text/plain; charset=utf-8", f"{match_id}.mat")


BACKGAMMON_ROUTES = [
    create_bg_match,
    import_bg_match,
    post_bg_command,
    get_bg_match,
    get_bg_plays,
    get_bg_match_at,
    get_bg_mat,
]
