"""The public read side's Router (decision 0174): the federation's app mounts it with one line
(`create_app(settings, routers=[public_router()])`). Everything here is public and read-only:
no sign-in, no secret, GET only; every read on one pooled connection, bounded by the pool's
wait (`db/pool.py`). The face is pwa/federation.html with the shared asset folders."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal
from uuid import UUID

import msgspec
from litestar import Request, Response, Router, get
from litestar.exceptions import ClientException, NotFoundException
from litestar.params import FromPath, QueryParameter

from tableside.federation.ranking.rules.board_order import RULE as BOARD_RULE
from tableside.federation.ranking.rules.board_order import check_board_order
from tableside.web.assets import DEFAULT_PWA_DIR, answer, folder_routes, read
from tableside.web.downloads import FaceLanguage, Language
from tableside.web.problems import coded

from . import files, reads, receipts

FOLDERS = ("js", "css", "i18n", "icons")
Query = Annotated[str, QueryParameter(max_length=100)]
Season = Annotated[int | None, QueryParameter(ge=1900, le=2999)]


def _pool(request: Request) -> Any:
    """The federation's pool: its app's context (the core's `FederationContext`, or the
    read side's own small app in `app.py`)."""
    return request.app.state.federation.pool


@get("/api/public/events", summary="Every event of every venue, searched")
async def list_events(request: Request, q: Query = "", season: Season = None) -> dict:
    async with _pool(request).acquire() as conn:
        return {
            "events": await reads.events(conn, q.strip(), season),
            "seasons": await reads.seasons(conn),
        }


@get(
    "/api/public/events/{venue_id:uuid}/{stream_id:uuid}",
    summary="One event as its venue publishes it",
)
async def one_event(request: Request, venue_id: FromPath[UUID], stream_id: FromPath[UUID]) -> dict:
    async with _pool(request).acquire() as conn:
        found = await reads.event(conn, venue_id, stream_id)
    if found is None:
        raise NotFoundException(extra=coded("archive_no_event"))
    return found


_RESULTS = "/api/public/events/{venue_id:uuid}/{stream_id:uuid}/results"


@get(
    [f"{_RESULTS}.csv", f"{_RESULTS}.xlsx"], summary="An event's results file as its venue makes it"
)
async def results_file(
    request: Request,
    venue_id: FromPath[UUID],
    stream_id: FromPath[UUID],
    lang: Language | None = None,
) -> Response[bytes]:
    kind = request.url.path.rsplit(".", 1)[-1]
    async with _pool(request).acquire() as conn:
        return await files.results(conn, venue_id, stream_id, kind, lang)


@get(
    "/api/public/matches/{venue_id:uuid}/{match_id:uuid}/{filename:str}",
    summary="A match's export (its protocol, …) as its venue makes it",
)
async def match_file(
    request: Request,
    venue_id: FromPath[UUID],
    match_id: FromPath[UUID],
    filename: FromPath[str],
    lang: FaceLanguage = "en",
) -> Response[bytes]:
    async with _pool(request).acquire() as conn:
        return await files.match_export(conn, venue_id, match_id, filename, lang)


@get("/api/public/players", summary="Register players by name or club")
async def find_players(request: Request, q: Query = "") -> dict:
    async with _pool(request).acquire() as conn:
        return {"players": await reads.players(conn, q.strip())}


@get("/api/public/players/{federation_id:int}", summary="A player's page across events")
async def one_player(request: Request, federation_id: FromPath[int]) -> dict:
    async with _pool(request).acquire() as conn:
        found = await reads.player(conn, federation_id)
    if found is None:
        raise NotFoundException(extra=coded("register_no_player", id=federation_id))
    return found


@get("/api/public/rankings", summary="Every season's ranking list")
async def list_rankings(request: Request) -> dict:
    async with _pool(request).acquire() as conn:
        return {"lists": await reads.rankings(conn)}


@get(
    "/api/public/rankings/{season:int}/{sport:str}/{discipline:str}/{age_class:str}",
    summary="One season's list: an edition (the newest unless asked) and every edition's date",
)
async def one_ranking(
    request: Request,
    season: FromPath[int],
    sport: FromPath[str],
    discipline: FromPath[str],
    age_class: FromPath[str],
    edition: Annotated[int | None, QueryParameter(ge=1)] = None,
) -> dict:
    key = f"{season}/{sport}/{discipline}/{age_class}"
    async with _pool(request).acquire() as conn:
        found = await reads.ranking(conn, key, edition)
    if found is None:
        raise NotFoundException(extra=coded("ranking_no_list", list=key))
    return found


@get("/api/public/receipts", summary="A match receipt checked against its venue's key and record")
async def check_receipt(
    request: Request, r: Annotated[str, QueryParameter(max_length=4000)] = ""
) -> dict:
    if not r.strip():  # the receipt to check: its JSON, a verify link or its fragment
        raise ClientException("Bad Request", extra=coded("invalid_field", field="r"))
    async with _pool(request).acquire() as conn:
        return await receipts.check(conn, r)


@get(
    "/api/public/rankings/{season:int}/{sport:str}/{discipline:str}/{age_class:str}/board-order",
    summary="A team's board order checked against the newest edition (EKML §29(2))",
)
async def board_order(
    request: Request,
    season: FromPath[int],
    sport: FromPath[str],
    discipline: FromPath[str],
    age_class: FromPath[str],
    boards: Annotated[str, QueryParameter(pattern=r"^[1-9][0-9]{0,11}(,[1-9][0-9]{0,11}){0,19}$")],
    view: Annotated[Literal["points", "rating"], QueryParameter()] = "points",
) -> dict:
    """`boards`: the team's federation ids, board I first, comma-separated."""
    key = f"{season}/{sport}/{discipline}/{age_class}"
    async with _pool(request).acquire() as conn:
        found = await reads.ranking(conn, key)
    if found is None:
        raise NotFoundException(extra=coded("ranking_no_list", list=key))
    places = {row["player"]: row["place"] for row in found["edition"][view]}
    findings = check_board_order(boards.split(","), places)
    return {
        "rule": BOARD_RULE,
        "edition": found["edition"]["number"],
        "view": view,
        "findings": msgspec.to_builtins(findings),
    }


def _page(root: Path):
    @get(
        ["/", "/events", "/players", "/rankings"],
        name="page-federation",
        include_in_schema=False,
        sync_to_thread=False,
    )
    def page(request: Request) -> Response[bytes]:
        return answer(request, read(root, "federation.html"), ".html")

    return page


ROUTES = (
    list_events,
    one_event,
    find_players,
    one_player,
    list_rankings,
    one_ranking,
    check_receipt,
    results_file,
    match_file,
    board_order,
)


def public_router(pwa_dir: Path | None = None) -> Router:
    """The public API, the face and its asset folders, under the federation's root."""
    root = pwa_dir or DEFAULT_PWA_DIR
    return Router(path="/", route_handlers=[*ROUTES, _page(root), *folder_routes(root, FOLDERS)])
