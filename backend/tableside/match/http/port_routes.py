"""A match of any registered discipline over HTTP, through its port alone (`match/discipline.py`):
create one, post a command, read its view, replay it version by version, download its export
sections. A discipline with no slice of its own is recorded here; its JSONL record, audit
record and verification are every match's (`export_routes`, `audit_routes`), its live feed the
kernel's port feed (`match/port_feed.py`).

    POST /api/disciplines/{name}/matches                      (head judge, secretary)
    POST /api/disciplines/{name}/matches/{id}/commands        (head judge, secretary)
    GET  /api/disciplines/{name}/matches/{id}                 the view
    GET  /api/disciplines/{name}/matches/{id}/at/{version}    the view after that version
    GET  /api/disciplines/{name}/matches/{id}/{filename}      an export section
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
from litestar.exceptions import NotFoundException
from litestar.params import FromPath, JSONBody, PathParameter

from tableside.eventlog.digest import command_digest
from tableside.eventlog.source import event_hash, read_stream
from tableside.match.discipline import Discipline
from tableside.match.http.command_routes import (
    MATCH_IDS,
    command_caller,
    command_meta,
    store_command,
)
from tableside.match.http.dto import CommandResponse, Short, Version
from tableside.match.http.export_routes import pdf_attachment
from tableside.web.context import Context, context
from tableside.web.downloads import Language, attachment
from tableside.web.guards import signed_in
from tableside.web.problems import Unprocessable, coded

STAFF = ("head_judge", "secretary")
Name = Annotated[str, PathParameter(min_length=1, max_length=40, pattern=r"^[a-z][a-z0-9_]*$")]
_ALL = 2**62


class CreateRequest(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A new match: the discipline's creating command (its codec reads it)."""

    command_id: UUID
    command: dict[str, Any]  # the discipline's codec reads it
    match_id: UUID | None = None
    device_id: Short = ""
    device_time: Short = ""


class CommandRequest(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """One command of the discipline's at the version the sender last saw."""

    command_id: UUID
    expected_version: Version
    command: dict[str, Any]  # the discipline's codec reads it
    device_id: Short = ""
    device_time: Short = ""


def _discipline(ctx: Context, name: str) -> Discipline:
    return ctx.disciplines.named(name)  # UnknownDiscipline: 404 (match/http/problems.py)


def _decode(discipline: Discipline, body: dict[str, Any]) -> Any:
    """The command its codec reads, or 422 naming what was wrong."""
    try:
        return discipline.decode_command(msgspec.json.encode(body))
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise Unprocessable(detail=f"Not a {discipline.name} command: {exc}") from None


@post(
    "/api/disciplines/{name:str}/matches",
    status_code=201,
    summary="Create a match of a discipline",
    guards=[signed_in(*STAFF)],
)
async def create_port_match(
    request: Request, state: State, name: Name, data: JSONBody[CreateRequest]
) -> CommandResponse:
    """Head judge or secretary: what the discipline decides for its creating command."""
    ctx = context(state)
    discipline = _discipline(ctx, name)
    principal = await command_caller(ctx, request, *STAFF)
    command = _decode(discipline, data.command)
    match_id = data.match_id or uuid.uuid5(MATCH_IDS, str(data.command_id))
    meta = command_meta(principal, data.device_id, data.device_time)
    work = partial(ctx.plays.create, name, match_id, command, command_id=data.command_id, meta=meta)
    digest = command_digest(f"{name}.create", match_id, command)
    return await store_command(ctx, data.command_id, match_id, work, digest)


@post(
    "/api/disciplines/{name:str}/matches/{match_id:uuid}/commands",
    status_code=201,
    summary="Post a command to a match of a discipline",
    guards=[signed_in(*STAFF)],
)
async def post_port_command(
    request: Request,
    state: State,
    name: Name,
    match_id: FromPath[UUID],
    data: JSONBody[CommandRequest],
) -> CommandResponse:
    """Head judge or secretary: one command at `expected_version`."""
    ctx = context(state)
    discipline = _discipline(ctx, name)
    principal = await command_caller(ctx, request, *STAFF)
    command = _decode(discipline, data.command)
    work = partial(
        ctx.plays.execute,
        name,
        match_id,
        command,
        expected_version=data.expected_version,
        command_id=data.command_id,
        meta=command_meta(principal, data.device_id, data.device_time),
    )
    digest = command_digest(f"{name}.command", match_id, command)
    return await store_command(ctx, data.command_id, match_id, work, digest)


@get("/api/disciplines/{name:str}/matches/{match_id:uuid}", summary="A match of a discipline")
async def get_port_match(state: State, name: Name, match_id: FromPath[UUID]) -> dict[str, Any]:
    """The match's view at its current version."""
    ctx = context(state)
    discipline = _discipline(ctx, name)
    match_state, version = await anyio.to_thread.run_sync(ctx.plays.current, name, match_id)
    return _doc(discipline, match_id, version, discipline.view(match_state))


@get(
    "/api/disciplines/{name:str}/matches/{match_id:uuid}/at/{version:int}",
    summary="A match of a discipline after one of its versions (replay)",
)
async def get_port_match_at(
    state: State,
    name: Name,
    match_id: FromPath[UUID],
    version: Annotated[int, PathParameter(ge=1, le=10**9)],
) -> dict[str, Any]:
    """The view after stored version `version` and the event stored there, with its rule."""
    ctx = context(state)
    discipline = _discipline(ctx, name)
    played = await anyio.to_thread.run_sync(ctx.plays.at, name, match_id, version)
    event = msgspec.to_builtins(played.event)
    doc = _doc(discipline, match_id, version, discipline.view(played.state))
    return {**doc, "event": event, "type": type(played.event).__name__, "rule": _rule(event)}


@get(
    "/api/disciplines/{name:str}/matches/{match_id:uuid}/{filename:str}",
    summary="One of a discipline's export sections of a match (its protocol, .mat)",
)
async def get_port_export(
    request: Request,
    state: State,
    name: Name,
    match_id: FromPath[UUID],
    filename: str,
    lang: Language = "en",
) -> Response[bytes]:
    """The discipline's export called `filename`, drawn from the match's stored events."""
    ctx = context(state)
    discipline = _discipline(ctx, name)
    export = next((e for e in discipline.exports if e.filename == filename), None)
    if export is None:
        raise NotFoundException(f"{name} has no export {filename!r}", extra=coded("no_export"))
    async with ctx.pool.acquire() as conn:
        records = await read_stream(conn, ctx.registry, match_id, _ALL)
        head = await event_hash(conn, match_id, records[-1].version) if records else ""
    types = frozenset(discipline.event_types)
    if not records or type(records[0].event) not in types:
        raise NotFoundException(f"No {name} match {match_id}", extra=coded("no_match"))
    download = f"{name}-{match_id}-{filename}"
    if export.media_type == "application/pdf":
        return await pdf_attachment(request, download, export.render, records, lang, head)
    body = await anyio.to_thread.run_sync(export.render, records, lang, head)
    return attachment(body, export.media_type, download)


def _doc(discipline: Discipline, match_id: UUID, version: int, view: dict) -> dict[str, Any]:
    return {
        "discipline": discipline.name,
        "match_id": str(match_id),
        "version": version,
        "view": view,
    }


def _rule(event: Any) -> str:
    return event.get("rule", "") if isinstance(event, dict) else ""


PORT_ROUTES = [
    create_port_match,
    post_port_command,
    get_port_match,
    get_port_match_at,
    get_port_export,
]
