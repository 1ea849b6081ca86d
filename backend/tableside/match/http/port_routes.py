"""The one family of match routes (decision 0214): every registered discipline's matches over
HTTP through its port alone (`match/discipline.py`), at the addresses it registers — korona's
`/api/matches`, backgammon's `/api/backgammon/matches`, a discipline of the port's defaults
`/api/disciplines/<name>/matches`:

    POST {address}{suffix}                                  create (each of its bodies)
    POST {address}/{id}/commands                            a command at expected_version
    GET  /api/disciplines/{name}/matches/{id}               the view
    GET  /api/disciplines/{name}/matches/{id}/at/{version}  the view after that version
    GET  /api/disciplines/{name}/matches/{id}/{filename}    an export section

The handlers are made per discipline (`match_routes`), so each route's body is the
discipline's own type (validated before the handler runs, documented in /schema). A
command: the caller held to the roles its command needs and the command rate, the command as
the caller stands behind it (`prepared`), then the port service (`match/port_service.py`) on
the event loop; a creation on a hall's table holds the hall's lock while it is stored. The
JSONL record, audit record and verification are every match's (`export_routes`,
`audit_routes`), the live feed of a discipline without its own the port feed
(`match/port_feed.py`).

No `from __future__ import annotations` here: the handlers' annotations name each
discipline's body types, resolved when the handler is made.
"""

from collections.abc import Callable
from typing import Annotated, Any
from uuid import UUID

import anyio.to_thread
import msgspec
from litestar import Request, Response, get, post
from litestar.datastructures import State
from litestar.exceptions import NotFoundException
from litestar.handlers import HTTPRouteHandler
from litestar.params import FromPath, JSONBody, PathParameter

from tableside.eventlog.source import event_hash, read_stream
from tableside.match.discipline import Creation, Discipline, Disciplines
from tableside.match.http.command_routes import command_caller, command_meta, store_command
from tableside.match.http.dto import CommandResponse
from tableside.match.http.export_routes import pdf_attachment
from tableside.match.http.responses import stored_response
from tableside.match.http.watching import watched
from tableside.web.context import Context, context
from tableside.web.downloads import Language, attachment
from tableside.web.guards import signed_in
from tableside.web.problems import coded, language

_ALL = 2**62
Doc = dict[str, Any]


def match_routes(disciplines: Disciplines) -> list[HTTPRouteHandler]:
    """Every discipline's match routes."""
    return [route for d in disciplines for route in _routes_of(d)]


def _routes_of(d: Discipline) -> list[HTTPRouteHandler]:
    creates = [_create_route(d, suffix, body) for suffix, body in d.create_bodies.items()]
    return [*creates, _command_route(d), *_read_routes(d)]


def _create_route(d: Discipline, suffix: str, body: type) -> HTTPRouteHandler:
    async def create_match(request: Request, state: State, data: JSONBody[body]) -> CommandResponse:
        """Create a match: the events its discipline decides for the new stream, at version
        0 (idempotent by command_id); on a hall's table, with the table free."""
        ctx = context(state)
        principal = await command_caller(ctx, request, *d.create_roles)
        creation = d.creation(data, language(request))
        meta = command_meta(principal, data.device_id, data.device_time) | {**d.meta}
        work = _create_work(ctx, d, creation, data.command_id, meta | {**creation.meta})
        return await _stored_creation(ctx, creation, data.command_id, work)

    create_match.__doc__ = f"{d.name}: {create_match.__doc__}"
    return post(
        f"{d.address}{suffix}",
        status_code=201,
        summary=f"Create a {d.name} match" + (f" ({suffix.strip('/')})" if suffix else ""),
        guards=[signed_in(*d.create_roles, commands=True)],
    )(create_match)


def _create_work(
    ctx: Context, d: Discipline, creation: Creation, command_id: UUID, meta: dict
) -> Callable[..., Any]:
    def work(digest: bytes) -> Any:
        matches = ctx.plays.of(d.name)
        return matches.create(
            creation.match_id, creation.events, command_id=command_id, meta=meta, digest=digest
        )

    return work


async def _stored_creation(
    ctx: Context, creation: Creation, command_id: UUID, work: Callable[..., Any]
) -> CommandResponse:
    """The creation stored once; a table must be free in the hall, but a retry of a stored
    create is answered as stored."""
    digest, match_id = creation.digest, creation.match_id
    if (
        not creation.table
        or ctx.hall is None
        or await stored_response(ctx.pool, command_id, digest)
    ):
        return await store_command(ctx, command_id, match_id, work, digest)
    async with ctx.hall(creation.table) as conn:
        return await store_command(ctx, command_id, match_id, work, digest, conn)


def _command_route(d: Discipline) -> HTTPRouteHandler:
    body = d.command_body

    async def post_command(
        request: Request, state: State, match_id: FromPath[UUID], data: JSONBody[body]
    ) -> CommandResponse:
        """One command at `expected_version`, from whoever its discipline lets post it."""
        ctx = context(state)
        command = d.command_of(data)
        principal = await command_caller(ctx, request, *d.roles_for(command))
        current = await ctx.tables.current(ctx.pool, principal.table)
        work = _command_work(
            ctx,
            d,
            match_id,
            await d.prepared(request, principal, match_id, command),
            expected_version=data.expected_version,
            command_id=data.command_id,
            meta=command_meta(principal, data.device_id, data.device_time) | {**d.meta},
            principal=principal,
            current=current,
        )
        digest = d.command_digest(match_id, command)
        return await store_command(ctx, data.command_id, match_id, work, digest)

    return post(
        f"{d.address}/{{match_id:uuid}}/commands",
        status_code=201,
        summary=f"Post a {d.name} command",
        guards=[signed_in(*d.command_roles, commands=True)],
    )(post_command)


def _command_work(ctx: Context, d: Discipline, match_id: UUID, command: Any, **kw: Any):
    async def work(digest: bytes) -> Any:
        return await ctx.plays.of(d.name).execute_async(match_id, command, digest=digest, **kw)

    return work


def _read_routes(d: Discipline) -> list[HTTPRouteHandler]:
    base = f"/api/disciplines/{d.name}/matches/{{match_id:uuid}}"

    async def get_port_match(request: Request, state: State, match_id: FromPath[UUID]) -> Doc:
        """The match's view at its current version (to whoever may watch it)."""
        matches = context(state).plays.of(d.name)
        folded = await anyio.to_thread.run_sync(matches.current, match_id)
        await d.watchable(request, folded.value)
        return _doc(d, match_id, folded.version, d.view(folded.value))

    async def get_port_match_at(
        request: Request,
        state: State,
        match_id: FromPath[UUID],
        version: Annotated[int, PathParameter(ge=1, le=10**9)],
    ) -> Doc:
        """The view after stored version `version` and the event stored there, with its rule
        (to whoever may watch the match)."""
        await watched(request, context(state), d, match_id)
        matches = context(state).plays.of(d.name)
        folded, event = await anyio.to_thread.run_sync(matches.at, match_id, version)
        built = msgspec.to_builtins(event)
        doc = _doc(d, match_id, version, d.view(folded))
        return {**doc, "event": built, "type": type(event).__name__, "rule": _rule(built)}

    async def get_port_export(
        request: Request,
        state: State,
        match_id: FromPath[UUID],
        filename: str,
        lang: Language = "en",
    ) -> Response[bytes]:
        """The discipline's export called `filename`, drawn from the match's stored events (to
        whoever may watch the match)."""
        return await _export(request, context(state), d, match_id, filename, lang)

    return [
        get(base, summary=f"A {d.name} match")(get_port_match),
        get(f"{base}/at/{{version:int}}", summary=f"A {d.name} match after one of its versions")(
            get_port_match_at
        ),
        get(f"{base}/{{filename:str}}", summary=f"One of {d.name}'s export sections of a match")(
            get_port_export
        ),
    ]


async def _export(
    request: Request, ctx: Context, d: Discipline, match_id: UUID, filename: str, lang: str
) -> Response[bytes]:
    export = next((e for e in d.exports if e.filename == filename), None)
    if export is None:
        raise NotFoundException(f"{d.name} has no export {filename!r}", extra=coded("no_export"))
    async with ctx.pool.acquire() as conn:
        records = await read_stream(conn, ctx.registry, match_id, _ALL)
        head = await event_hash(conn, match_id, records[-1].version) if records else ""
    if not records or type(records[0].event) not in frozenset(d.event_types):
        raise NotFoundException(f"No {d.name} match {match_id}", extra=coded("no_match"))
    await watched(request, ctx, d, match_id)
    download = f"{d.name}-{match_id}-{filename}"
    if export.media_type == "application/pdf":
        return await pdf_attachment(request, download, export.render, records, lang, head)
    body = await anyio.to_thread.run_sync(export.render, records, lang, head)
    return attachment(body, export.media_type, download)


def _doc(d: Discipline, match_id: UUID, version: int, view: dict) -> Doc:
    return {"discipline": d.name, "match_id": str(match_id), "version": version, "view": view}


def _rule(event: Any) -> str:
    return event.get("rule", "") if isinstance(event, dict) else ""
