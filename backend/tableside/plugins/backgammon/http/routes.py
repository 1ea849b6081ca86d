"""Backgammon's own reads of a match: its state and board, the legal plays for the dice on
the board, the board after a stored version (replay), the .mat text. Its commands are the
match kernel's routes (`match/http/port_routes.py`) through the port (`commanding.py`). A
match whose spectators are barred (KSI 1.6.4) is read only behind the bar (`access.py`).
"""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

import anyio.to_thread
import msgspec
from litestar import Request, Response, get
from litestar.datastructures import State
from litestar.params import FromPath
from litestar.params import Parameter as PathParameter

from tableside.disciplines.backgammon.mat import export_mat
from tableside.disciplines.backgammon.state import MOVE, MatchState, mine, snapshot
from tableside.disciplines.backgammon.steps import move_orders
from tableside.disciplines.backgammon.view import board_doc
from tableside.match.port_service import Matches
from tableside.plugins.backgammon.http.access import watchable
from tableside.plugins.backgammon.stream import history
from tableside.web.context import context
from tableside.web.downloads import attachment


def _matches(state: State) -> Matches:
    return context(state).plays.of("backgammon")


@get("/api/backgammon/matches/{match_id:uuid}", summary="A backgammon match's state")
async def get_bg_match(request: Request, state: State, match_id: FromPath[UUID]) -> dict[str, Any]:
    match, version, _ = await anyio.to_thread.run_sync(history, _matches(state), match_id)
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
    match, version, _ = await anyio.to_thread.run_sync(history, _matches(state), match_id)
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
    played, event = await anyio.to_thread.run_sync(_matches(state).at, match_id, version)
    latest, _, _ = await anyio.to_thread.run_sync(history, _matches(state), match_id)
    await watchable(request, latest)
    return {"event": msgspec.to_builtins(event), "board": board_doc(snapshot(played.state))}


@get(
    "/api/backgammon/matches/{match_id:uuid}/match.mat",
    summary="The match as Jellyfish .mat text (GNU Backgammon imports it)",
)
async def get_bg_mat(request: Request, state: State, match_id: FromPath[UUID]) -> Response[bytes]:
    match, _, events = await anyio.to_thread.run_sync(history, _matches(state), match_id)
    await watchable(request, match)
    text = export_mat(events).encode()
    return attachment(text, "text/plain; charset=utf-8", f"{match_id}.mat")


BACKGAMMON_ROUTES = [
    get_bg_match,
    get_bg_plays,
    get_bg_match_at,
    get_bg_mat,
]
