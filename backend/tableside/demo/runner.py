"""`serve --demo`: a real competition — a Swiss of ten with a play-off of four — run through
the competition service: the draw, call-ups to tables 1–4, simulated matches there, results
flowing into the standings and the bracket (the results processor records them as for any
competition). Table 5 is left to a person: each Swiss round has five boards, so one waits for
a table — a head judge may call it to table 5 from the console and judge it from that table's
link; otherwise it goes to the first simulated table that is free. Called to table 5 and left
there unjudged, a simulated judge takes it at table 5 when its countdown ends (decision 0190).

Every stroke goes through the port's service (`match/port_service.py`), the same path as a
judge's HTTP command, by the house itself. On start, walk-up matches an earlier demo left
unfinished are closed with MatchAbandoned and its reason; an unfinished demo competition is
resumed where it stopped.
Beside it, a backgammon competition (KSI) with clocked 5-point matches on tables 6 and 7
(`demo/backgammon.py`).
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import uuid
from functools import partial

import anyio.to_thread

from tableside.competition.matchflow import match_stream
from tableside.competition.rules.entrants import Person
from tableside.competition.service import CompetitionService, now
from tableside.demo import backgammon
from tableside.demo.director import (
    Hold,
    left_at_table,
    next_command,
    nobody_judging,
    run_guide,
    setup_commands,
)
from tableside.demo.hold import HUMAN_TABLE, current_hold, newest_run, paired_at, run_id
from tableside.demo.pacing import seconds_left, stroke_wait
from tableside.disciplines.korona import simulate
from tableside.match.errors import MatchNotFound
from tableside.plugins.korona.commanding import abandon
from tableside.staff import accounts, links
from tableside.staff.staff_routes import judge_link

log = logging.getLogger(__name__)

TABLES = HUMAN_TABLE - 1  # simulated; table 5 is a person's: a simulator would race their taps
LEGACY = "demo-cup"  # the label of the walk-up matches earlier demos played
PLAYERS = (
    ("Mari Tamm", "F"),
    ("Jaan Kask", "M"),
    ("Liis Mets", "F"),
    ("Toomas Saar", "M"),
    ("Kati Põld", "F"),
    ("Peeter Kuusk", "M"),
    ("Ilze Ozola", "F"),
    ("Jānis Bērziņš", "M"),
    ("Eva Kivi", "F"),
    ("Andris Kalniņš", "M"),
)
DEMO_USER = ("demo", "demo-head-judge")
META = {"recorder": "demo", "role": "head_judge", "device_id": "demo-simulator"}
DEMO_LOCK = 7_202_612  # the advisory lock of the node running the demo (migrations: 7_202_611)
ABANDON_REASON = "demo_stopped"  # a code: the faces word it (i18n/codes.*.json)


def pace_from_env() -> tuple[float, float]:
    """Seconds between simulated commands, `TABLESIDE_DEMO_PACE=min,max` (default 0.6,2.0)."""
    raw = os.environ.get("TABLESIDE_DEMO_PACE", "")
    try:
        low, high = (float(x) for x in raw.split(","))
    except ValueError:
        return (0.6, 2.0)
    return (max(0.0, low), max(low, high))


class Current:
    """The demo competition being played now (a new one follows when it finishes)."""

    def __init__(self, hold_seconds: int) -> None:
        self.comp_id: uuid.UUID | None = None
        self.hold: Hold | None = None  # the board kept for table 5 now: the tables play slower
        self.hold_seconds = hold_seconds  # how long it is kept (TABLESIDE_DEMO_HOLD_SECONDS)


async def run_demo(ctx, seconds_per_command: tuple[float, float] | None = None) -> None:
    """The demo on one node only: several `serve --demo` on one database (or a node started
    again while the old one still runs) would play the same tables twice. A session advisory
    lock on a connection of its own says who runs it; the others say so and leave it."""
    import asyncpg

    conn = await asyncpg.connect(ctx.settings.database_url)
    try:
        if not await conn.fetchval("SELECT pg_try_advisory_lock($1)", DEMO_LOCK):
            print("demo: already running on another node of this database", flush=True)
            return
        await _run_demo(ctx, seconds_per_command)
    finally:
        await conn.close()  # the lock goes with the connection


async def _run_demo(ctx, seconds_per_command: tuple[float, float] | None = None) -> None:
    """Announce the links, close an earlier run's orphans, then run competitions until
    cancelled."""
    pace = seconds_per_command or pace_from_env()
    await accounts.add_account(ctx.pool, *DEMO_USER[:1], "head_judge", DEMO_USER[1])
    # A restart of the demo keeps the links it printed before (issue 52, decision 0176):
    # each ends at its own expiry, or when the head judge revokes it.
    await _announce(ctx)
    closed = await anyio.to_thread.run_sync(close_orphans, ctx)
    if closed:
        log.warning("demo: closed %d match(es) an earlier run left unfinished", closed)
    service = CompetitionService(ctx.store)
    current = Current(ctx.settings.demo_hold_seconds)
    rng = random.Random()
    async with asyncio.TaskGroup() as group:
        group.create_task(_direct(service, current, rng))
        for table in range(1, TABLES + 1):
            sim = random.Random(rng.random())
            group.create_task(_table(ctx, service, current, table, sim, pace))
        # Table 5 is a person's, but a kept board called there and left is taken over by a
        # simulated judge once its countdown ends (decision 0190): the round goes on.
        left = partial(_left_here, ctx, service, current)
        sim = random.Random(rng.random())
        group.create_task(_table(ctx, service, current, HUMAN_TABLE, sim, pace, left))
        opened = lambda: current.comp_id is not None  # noqa: E731  korona's run listed first
        group.create_task(backgammon.run_backgammon(ctx, service, pace, opened))


async def _announce(ctx) -> None:
    """Print the head judge's login, the spectators' page and every table's judge link."""
    host = ctx.settings.host
    if host in links.ANY:  # listening everywhere: print the address a tablet can open
        host = links.lan_address() or "127.0.0.1"
    # With HTTPS (issue 40) the links name the origin a tablet trusts.
    base = ctx.settings.https_origin or f"http://{host}:{ctx.settings.port}"
    lines = [f"demo: head judge login {DEMO_USER[0]} / {DEMO_USER[1]}; spectators: {base}/"]
    for table in (HUMAN_TABLE, *range(1, TABLES + 1)):
        _, token = await accounts.issue_judge_token(
            ctx.pool, table, DEMO_USER[0], ctx.settings.judge_token_hours
        )
        note = (
            "  ← yours: call the waiting match here from /admin, then judge it"
            if table == HUMAN_TABLE
            else " (simulated)"
        )
        lines.append(f"  table {table} judge: {judge_link(base, table, token)}{note}")
    first, last = backgammon.TABLES[0], backgammon.TABLES[-1]
    lines.append(f"  backgammon (KSI, clocked 5-point matches): tables {first}-{last} (simulated)")
    if links.is_loopback(host):
        lines.append(
            f"  note: these links name {host}, which a tablet cannot open; to judge from a "
            "tablet, start with HOST=0.0.0.0 (make run) or tableside serve --host 0.0.0.0"
        )
    print("\n".join(lines), flush=True)


def close_orphans(ctx) -> int:
    """MatchAbandoned, with its reason, for every walk-up demo match still unfinished."""
    closed = 0
    for stored in _scheduled(ctx.store):
        if getattr(stored.event, "competition_id", None) != LEGACY:
            continue
        try:
            if abandon(ctx.plays.of("korona"), stored.stream_id, ABANDON_REASON, now(), META):
                closed += 1
        except MatchNotFound:
            continue
    return closed


def _scheduled(store):
    """Every MatchScheduled stored so far (read in pages of the global order)."""
    position = 0
    while page := store.read_all(after_position=position, limit=1000):
        for stored in page:
            if type(stored.event).__name__ == "MatchScheduled":
                yield stored
        position = page[-1].position


async def _direct(service: CompetitionService, current: Current, rng: random.Random) -> None:
    """The demo's head judge: set a competition up (or resume it), then pair, call, draw the
    play-off and finish as the state allows; a finished one is followed by the next."""
    while True:
        try:
            if current.comp_id is None:
                current.comp_id = await anyio.to_thread.run_sync(_open_competition, service)
            done = await anyio.to_thread.run_sync(_step_competition, service, current, rng)
            if done:
                await asyncio.sleep(30)
                current.comp_id = None
        except Exception:  # the demo must never take the server down
            log.exception("demo director: trying again")
            await asyncio.sleep(5)
        await asyncio.sleep(1)


def _open_competition(service: CompetitionService) -> uuid.UUID:
    """The newest demo run if unfinished, else the next run (numbered: "Demo Swiss #2")
    set up and drawn."""
    newest = newest_run(service)
    if newest is not None and not newest[2].finished:
        return newest[1]
    n = 1 if newest is None else newest[0] + 1
    comp_id = run_id(n)
    people = [(f"e{i:02d}", Person(name, 1980 + i, sex)) for i, (name, sex) in enumerate(PLAYERS)]
    commands = setup_commands(run_guide(n), people, seed=n, at=now())
    service.create(comp_id, commands[0], command_id=uuid.uuid5(comp_id, "0"), meta=META)
    for i, command in enumerate(commands[1:], 1):
        version, _ = service.state(comp_id)
        service.execute(
            comp_id,
            command,
            expected_version=version,
            command_id=uuid.uuid5(comp_id, str(i)),
            meta=META,
        )
    return comp_id


def _step_competition(service: CompetitionService, current: Current, rng) -> bool:
    """One move of the director; True once the competition is finished."""
    comp_id = current.comp_id
    version, state = service.state(comp_id)
    if state.finished:
        current.hold = None
        return True
    # table 5's match, while its countdown runs
    held = current_hold(service.store, comp_id, state, current.hold_seconds)
    current.hold = held
    command = next_command(state, tuple(range(1, TABLES + 1)), rng.randrange(10**6), now(), held)
    if command is not None:
        service.execute(
            comp_id, command, expected_version=version, command_id=uuid.uuid4(), meta=META
        )
    return False


async def _table(ctx, service, current: Current, table: int, rng, pace, find=None) -> None:
    """Play whatever the competition has called to this table (or `find` finds there),
    stroke by stroke."""
    find = find or partial(_called_here, ctx, service, current)
    while True:
        try:
            stream = await anyio.to_thread.run_sync(find, table)
            if stream is None:
                await asyncio.sleep(1)
                continue
            while (view := await anyio.to_thread.run_sync(_step, ctx, stream, rng)) is not None:
                await asyncio.sleep(_wait(view.state, current.hold, rng, pace))
        except Exception:  # a demo table must never take the server down
            log.exception("demo table %s: starting over", table)
            await asyncio.sleep(5)


def _called_here(ctx, service, current: Current, table: int) -> uuid.UUID | None:
    """The match stream of the competition's call to this table that has no result yet,
    once the results processor has put it on the table."""
    if current.comp_id is None:
        return None
    _, state = service.state(current.comp_id)
    for match_id, called in state.calls.items():
        if called == table and match_id not in state.results:
            stream = match_stream(current.comp_id, match_id)
            try:
                view = ctx.plays.of("korona").view(stream)
            except MatchNotFound:
                return None  # not started yet
            return None if view.abandoned else stream
    return None


def _left_here(ctx, service, current: Current, table: int) -> uuid.UUID | None:
    """The kept board's stream, called to the person's table and left there: its countdown
    ended and nobody has judged it lately (decision 0190); else None."""
    if current.comp_id is None:
        return None
    _, state = service.state(current.comp_id)
    paired = paired_at(service.store, current.comp_id, state.current_round)
    match_id = left_at_table(state, paired, now(), current.hold_seconds, table)
    if match_id is None:
        return None
    stream = match_stream(current.comp_id, match_id)
    stored = ctx.store.read(stream)
    if not stored:
        return None  # not on the table yet
    # a judge's commands: whoever recorded them, not the competition that put it on the table
    setter = stored[0].meta.get("recorder")
    judged = [s.recorded_at for s in stored if s.meta.get("recorder") != setter]
    if not nobody_judging(judged[-1].isoformat() if judged else None, now()):
        return None
    return _called_here(ctx, service, current, table)


def _wait(state, hold: Hold | None, rng: random.Random, pace) -> float:
    """Seconds to the table's next command: its pace, spread over the countdown while a board
    is kept for table 5 (demo/pacing.py), so a visitor finds tables 1-4 playing."""
    kept = seconds_left(hold.until, now()) if hold is not None else 0.0
    return stroke_wait(rng.uniform(*pace), pace[1], kept, state)


def _step(ctx, match_id: uuid.UUID, rng: random.Random):
    """Post the simulator's next command and return the match as it was before it; None once
    the match is over and signed."""
    view = ctx.plays.of("korona").view(match_id)
    if view.abandoned:
        return None
    command = simulate.next_command(view.state, rng)
    if command is None:
        return None
    ctx.plays.of("korona").execute(
        match_id, command, expected_version=view.version, command_id=uuid.uuid4(), meta=META
    )
    return view
