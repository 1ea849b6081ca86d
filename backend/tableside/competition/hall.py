"""The hall: what every table holds now, whoever put it there (issue 13).

Competitions share the tables of one hall with each other and with walk-up matches. A table is
held by a match that has not ended (a discipline's read model of the hall's tables,
`Tables.holding`: any competition or none; a sport's own read model of its matches: one of
them on a table) or by a competition's call that has no
result yet (read from the competition streams themselves, so a call made a moment ago holds its
table before its match stream exists). A team match holds one table per board (EKML §29(2)),
each named with its board. Calls of every competition run one at a time across the hall (a
transaction-scoped advisory lock, so across worker processes too): two TDs cannot call two
matches to one table.

The lock holder reads everything on the one connection that holds the lock, and a process's
callers queue for their turn holding no connection (issue 28: a holder that asked the pool
for more waited for connections only the lock's waiters could give back — five calls at once
stopped the hall). Both waits are bounded: 503 with Retry-After, never a hang.
"""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from collections.abc import AsyncIterator, Callable
from typing import Any
from uuid import UUID

import anyio.to_thread
import asyncpg
import msgspec
from litestar.exceptions import ClientException

from tableside.competition.flows import Flows
from tableside.competition.matchflow import match_stream
from tableside.competition.rules import commands as cc
from tableside.competition.rules import sports
from tableside.competition.rules.errors import CompetitionRuleError
from tableside.competition.rules.state import Competition
from tableside.competition.rules.team_calls import block_for, free_blocks
from tableside.competition.service import CompetitionNotFound
from tableside.db.pool import PoolBusy
from tableside.web.consistency import Db, caught_up
from tableside.web.problems import coded

HALL_LOCK = 0x74_61_62_6C_65_68_61_6C  # "tablehal": one key for every call in the hall
OPEN_COMPETITIONS = "SELECT competition_id, name FROM competition_view WHERE NOT finished"
# A match still on a table names its competition by name, finished or not (issue 54: a
# finished one's was named by its id).
NAMES = "SELECT competition_id, name FROM competition_view"
CALLS = (cc.CallMatch, cc.CallNextMatches, cc.MoveMatch)
# Matches kept for one table each (match id, table): the demo's for its visitor (decision 0137).
Kept = tuple[tuple[str, int], ...]


def nothing_kept(comp_id: UUID, state: Competition | None) -> Kept:
    """No match is kept for a table (every hall but the demo's)."""
    return ()


class Holder(msgspec.Struct, frozen=True):
    """What holds a table: its players, the competition (None: a walk-up match) and whether
    they are playing yet or were called and are on their way."""

    table: int
    players: str
    competition_id: str | None
    competition: str | None
    state: str  # "waiting" | "playing"
    match_id: str | None = None  # the competition's match id (`R2-3`), when it has one
    board: int | None = None  # a team match's board on this table (EKML §29(2))


class TableBusy(ClientException):
    """A call to a table something else holds: 409, saying what holds it."""

    status_code = 409

    def __init__(self, holder: Holder) -> None:
        where = holder.competition or "a match outside any competition"
        if holder.board:
            where = f"board {holder.board} of {holder.match_id}, {where}"
        super().__init__(
            detail=f"Table {holder.table} is busy",
            extra={
                "detail": f"Table {holder.table} is in use: {holder.players} ({where}). "
                "Call the match to a free table, or wait until this one is free.",
                "reason": "table_busy",
                **coded("table_in_use", tables=holder.table),
                "table": holder.table,
                "held_by": msgspec.to_builtins(holder),
            },
        )


class NoFreeTable(ClientException):
    """Call-next with every offered table held elsewhere in the hall."""

    status_code = 409

    def __init__(self, offered: tuple[int, ...]) -> None:
        super().__init__(
            detail="No free table",
            extra={
                "detail": "Every table offered is in use by another match in the hall "
                f"({', '.join(map(str, offered))}). Wait for one to finish, or add tables.",
                "reason": "no_free_table",
                **coded("no_free_table", tables=", ".join(map(str, offered))),
                "tables": list(offered),
            },
        )


class MatchKept(ClientException):
    """A call of a match kept for one table (the demo's, for a visitor) to another: 409."""

    status_code = 409

    def __init__(self, match_id: str, table: int) -> None:
        super().__init__(
            detail="Match kept for another table",
            extra={
                "detail": f"Match {match_id} is kept for table {table} until its countdown "
                f"ends: call it to table {table} (Call next does, with table {table} free).",
                "reason": "match_kept",
                **coded("match_kept", table=table),
                "match_id": match_id,
                "table": table,
            },
        )


class MatchStarted(ClientException):
    """A move of a match whose play has begun at its table: 409 (decision 0207)."""

    status_code = 409

    def __init__(self, match_id: str, table: int) -> None:
        super().__init__(
            detail="Match started",
            extra={
                "detail": f"Match {match_id} has started on table {table}: a game under way "
                "is finished where it is played (EKML §17(3) calls a match to one table).",
                "reason": "match_started",
                **coded("match_started", table=table),
                "match_id": match_id,
                "table": table,
            },
        )


class NoFreeBlock(ClientException):
    """Call-next of a team competition with no block of consecutive free tables."""

    status_code = 409

    def __init__(self, size: int, free: tuple[int, ...]) -> None:
        listed = ", ".join(map(str, free)) or "none"
        super().__init__(
            detail="No free block of tables",
            extra={
                "detail": f"A team match needs {size} free tables side by side, one per "
                f"board (EKML §29(2)); free of those offered: {listed}. Wait for a team "
                "match to finish, or offer more tables.",
                "reason": "no_free_block",
                **coded("no_free_block", boards=size),
                "boards": size,
                "tables": list(free),
            },
        )


async def holders(db: Db, state_of: Callable[[UUID], Competition], flows: Flows) -> list[Holder]:
    """Every held table of the hall, by table (a match on it outranks a call to it; a
    match of a sport's own read model on a table a call holds is that call's match; such
    matches each flow reads from its own read model). `db`: the pool, or the connection
    holding the hall's lock."""
    matches, open_ = await _read(db, flows)
    calls = {h.table: h for h in await anyio.to_thread.run_sync(_calls, open_, state_of)}
    by_table = calls | {h.table: _named(h, calls.get(h.table)) for h in matches}
    playing = await flows.on_tables(db)
    boards = {t: Holder(t, f"{a} – {b}", None, None, "playing") for t, a, b in playing}
    by_table = {t: h for t, h in boards.items() if t not in calls} | by_table
    return [by_table[t] for t in sorted(by_table)]


def _named(match: Holder, call: Holder | None) -> Holder:
    """A competition's match on its table, with the competition's match id from its call
    (a team match's board: its board and the players with their teams)."""
    if call is None or call.competition_id != match.competition_id:
        return match
    players = call.players if call.board else match.players  # a board names its teams too
    return msgspec.structs.replace(match, match_id=call.match_id, board=call.board, players=players)


async def _read(db: Db, flows: Flows) -> tuple[list[Holder], dict[str, str]]:
    """The open competitions, and the matches each discipline's read model of the hall's
    tables has on a table (`Tables.holding`)."""
    open_ = {str(r[0]): r[1] for r in await db.fetch(OPEN_COMPETITIONS)}
    rows = [row for tables in flows.tables for row in await db.fetch(tables.holding)]
    names = {str(r[0]): r[1] for r in await db.fetch(NAMES)} if rows else {}
    return [_match_holder(row, names) for row in rows], open_


def _match_holder(row: Any, names: dict[str, str]) -> Holder:
    table, comp, side_a, side_b, status, board = row
    players = " – ".join(" & ".join(msgspec.json.decode(s)) for s in (side_a, side_b))
    state = "playing" if status == "playing" else "waiting"
    return Holder(table, players, comp, names.get(comp or "", comp), state, board=board)


def _calls(open_: dict[str, str], state_of: Callable[[UUID], Competition]) -> list[Holder]:
    """The open calls of every unfinished competition, from its stream (sync: a thread)."""
    out = []
    for comp_id, name in open_.items():
        state = state_of(UUID(comp_id))
        for match_id, table in state.calls.items():
            if match_id not in state.results:
                out += _call_holders(state, match_id, table, comp_id, name)
    return out


def _call_holders(
    state: Competition, match_id: str, table: int, comp_id: str, name: str
) -> list[Holder]:
    """The tables one open call holds: its table, or every board's table of a team match."""
    a, b = (entrant_name(state, e) for e in state.called_sides[match_id])
    boards = state.board_calls.get(match_id, ())
    if not boards:
        return [Holder(table, f"{a} – {b}", comp_id, name, "waiting", match_id)]
    return [
        Holder(x.table, f"{x.a} – {x.b} ({a} – {b})", comp_id, name, "waiting", match_id, x.board)
        for x in boards
    ]


def entrant_name(state: Competition, entrant: str) -> str:
    found = state.entrants.get(entrant)
    return found.name if found else entrant


@contextlib.asynccontextmanager
async def calling(pool: asyncpg.Pool, flows: Flows) -> AsyncIterator[asyncpg.Connection]:
    """Hold the hall's call lock while a call is checked and stored, with the read models of
    the hall's tables (each discipline's, and a sport's own) caught up with everything stored
    before (a match created a moment ago holds its table). Yields the connection holding the
    lock: whatever the call reads runs on it."""
    models = {t.read_model for t in flows.tables} | {s.read_model for s in sports.known()}
    async with _turn(pool), pool.acquire() as conn, conn.transaction():
        # lock_timeout (the app's sessions) bounds the wait for another process's caller.
        await conn.execute("SELECT pg_advisory_xact_lock($1)", HALL_LOCK)
        for model in sorted(models - {""}):
            await caught_up(conn, model)
        yield conn


_TURNS: weakref.WeakKeyDictionary[asyncpg.Pool, asyncio.Lock] = weakref.WeakKeyDictionary()


@contextlib.asynccontextmanager
async def _turn(pool: asyncpg.Pool) -> AsyncIterator[None]:
    """This process's callers one at a time, waiting with no connection held, for no longer
    than they would wait for a connection (PoolBusy: 503, try again)."""
    turn = _TURNS.setdefault(pool, asyncio.Lock())
    seconds = getattr(pool, "acquire_seconds", 5.0)
    try:
        async with asyncio.timeout(seconds):
            await turn.acquire()
    except TimeoutError:
        raise PoolBusy(f"no turn at the hall's call lock within {seconds:g} s") from None
    try:
        yield
    finally:
        turn.release()


@contextlib.asynccontextmanager
async def table_free(
    pool: asyncpg.Pool, state_of: Callable[[UUID], Competition], flows: Flows, table: int
) -> AsyncIterator[asyncpg.Connection]:
    """Hold the hall's call lock with `table` free, for a match outside any competition (a
    walk-up): TableBusy when any match or call holds it. Yields the lock's connection."""
    async with calling(pool, flows) as conn:
        busy = next((h for h in await holders(conn, state_of, flows) if h.table == table), None)
        if busy is not None:
            raise TableBusy(busy)
        yield conn


def placed(
    command: object,
    comp_id: UUID,
    held: list[Holder],
    state: Competition | None = None,
    kept: Kept = (),
) -> object:
    """The call as the hall allows it: a CallMatch to any held table (every board's table of a
    team match) is refused (TableBusy), and a kept match's to any table but its own
    (MatchKept); call-next keeps the offered tables held by nothing elsewhere (NoFreeTable
    when nothing is left; NoFreeBlock when a team match cannot sit) and each kept match for
    its table."""
    by_table = {h.table: h for h in held}
    if isinstance(command, cc.MoveMatch):
        return _moved(command, comp_id, by_table, kept)
    if isinstance(command, cc.CallMatch):
        own = dict(kept).get(command.match_id)
        if own is not None and own != command.table:
            raise MatchKept(command.match_id, own)
        busy = [by_table[t] for t in _block(command, state) if t in by_table]
        if busy:
            raise TableBusy(busy[0])
        return command
    if isinstance(command, cc.CallNextMatches):
        elsewhere = {h.table for h in held if h.competition_id != str(comp_id)}
        free = tuple(t for t in command.free_tables if t not in elsewhere)
        if command.free_tables and not free:
            raise NoFreeTable(command.free_tables)
        _check_block(state, tuple(t for t in free if t not in by_table))
        return msgspec.structs.replace(command, free_tables=free, kept=tuple(kept))
    return command


def _moved(
    command: cc.MoveMatch, comp_id: UUID, by_table: dict[int, Holder], kept: Kept
) -> cc.MoveMatch:
    """A move to a table anything else in the hall holds is refused (TableBusy; the table it
    is on already: the domain's to say), and a kept match's to any table but its own
    (MatchKept)."""
    own = dict(kept).get(command.match_id)
    if own is not None and own != command.table:
        raise MatchKept(command.match_id, own)
    holder = by_table.get(command.table)
    itself = holder is not None and (holder.competition_id, holder.match_id) == (
        str(comp_id),
        command.match_id,
    )
    if holder is not None and not itself:
        raise TableBusy(holder)
    return command


async def not_started(
    command: object, comp_id: UUID, state: Competition | None, flows: Flows
) -> None:
    """A move of a match whose play has begun (its stream, by the flow of the guide's sport)
    is refused: MatchStarted (decision 0207)."""
    if not isinstance(command, cc.MoveMatch) or state is None or state.guide is None:
        return
    table = state.calls.get(command.match_id)
    flow = flows.by_sport.get(sports.of(state.guide).name)
    if table is None or flow is None:
        return  # never called: the domain says so
    stream = match_stream(comp_id, command.match_id)
    if await anyio.to_thread.run_sync(flow.started, stream):
        raise MatchStarted(command.match_id, table)


def _teams(state: Competition | None) -> int:
    """Boards per team match (0: not a team competition)."""
    teams = state.guide.teams if state is not None and state.guide is not None else None
    return teams.boards if teams is not None else 0


def _block(command: cc.CallMatch, state: Competition | None) -> tuple[int, ...]:
    """The tables a CallMatch asks for (a block the domain refuses is its to explain)."""
    if state is None or state.guide is None or not _teams(state):
        return (command.table, *command.tables)
    try:
        return block_for(state.guide, command.table, command.tables)
    except CompetitionRuleError:
        return (command.table,)


def _check_block(state: Competition | None, open_tables: tuple[int, ...]) -> None:
    """A team competition's call-next needs a block of consecutive tables nothing holds."""
    size = _teams(state)
    if size > 1 and not free_blocks(open_tables, size):
        raise NoFreeBlock(size, open_tables)


async def calling_state(
    state_of: Callable[[UUID], Competition], comp_id: UUID
) -> Competition | None:
    """The calling competition's state (None when there is none: the domain says 404)."""
    try:
        return await anyio.to_thread.run_sync(state_of, comp_id)
    except CompetitionNotFound:
        return None
