"""The demo's backgammon competition beside the korona one: a KSI single elimination of four
Icelandic players, clocked 5-point matches (KSI 3.5: 2 minutes a point) on tables 6 and 7, each
played by the engine's simulator with the clock pressed after every move, about a third of the
moves thought over past the 12 s delay so that the clocks run down, and each match seeded so
that it passes through a Crawford game (KSI 4.4.4), the final's too: the spectators' page shows
a live clocked match. A finished run is followed by the next ("Kotrumót KSI #2"), as the
korona demo's.

It runs inside `runner.run_demo`, so under the demo's advisory lock: one node of a database
plays it. Commands go through the port's service (`match/port_service.py`), the path of a
recorder's HTTP command.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
import uuid

import anyio.to_thread
import msgspec

from tableside.competition.matchflow import match_stream
from tableside.competition.rules.entrants import Person
from tableside.competition.rules.guide import Guide
from tableside.competition.service import CompetitionNotFound, CompetitionService, now
from tableside.demo.director import next_command, setup_commands
from tableside.demo.hold import DEMO_IDS
from tableside.disciplines.backgammon import RuleViolation, decide, fold
from tableside.disciplines.backgammon import commands as c
from tableside.disciplines.backgammon import state as st
from tableside.disciplines.backgammon.simulate import next_command as simulated
from tableside.match.errors import MatchNotFound
from tableside.match.port_service import Matches
from tableside.plugins.backgammon.stream import history

log = logging.getLogger(__name__)

TABLES = (6, 7)  # beside korona's 1-5
LENGTH = 5
PLAYERS = ("Guðrún Jónsdóttir", "Sigurður Þórsson", "Ásdís Ólafsdóttir", "Kári Einarsson")
GUIDE = msgspec.convert(
    {
        "name": "Kotrumót KSI",
        "sport": "backgammon",
        "ruleset": "KSI",
        "discipline": "open_singles",
        "format": "single_elimination",
        "games_per_match": 1,
        "playoff_games": 1,
        "points": {"win": 1, "draw": 0.5, "loss": 0},
        "tie_breaks": ["games_diff"],
        "settings": {"lengths": [LENGTH], "clock": True},
    },
    Guide,
)
META = {"recorder": "demo", "role": "head_judge", "device_id": "demo-simulator"}
THINK_S = (14.0, 24.0)  # a move thought over: past the 12 s delay, so the time runs down
THINK_SHARE = 0.35  # of the moves (the rest are made within the delay, as most are)
TRIES = 20  # the simulator's draws before a command the engine accepts (an illegal play
# corrected needs the clock stopped first: KSI 4.2.3.3; another draw is as good for a demo)


def run_id(n: int) -> uuid.UUID:
    return uuid.uuid5(DEMO_IDS, f"backgammon-{n}")


def clock_command(state: st.MatchState, at_ms: int) -> c.Command | None:
    """What the players do with the clock now (KSI 3.5): start it for a new match, resume it,
    start the mover's time after the opening roll, press it once a move is made."""
    g, timer = state.game, state.timer
    if not state.clock or g.phase in (st.OVER, st.OPENING) or not g.turn or state.over:
        return None
    if timer is None:
        return c.StartClock(at_ms=at_ms)
    if timer.stopped:
        return c.ResumeClock(at_ms=at_ms)
    if not timer.running:
        return c.PressClock(side=st.other(g.turn), at_ms=at_ms)
    if timer.running and timer.running != g.turn:
        return c.PressClock(side=timer.running, at_ms=at_ms)
    return None


def think_s(command: c.Command, rng: random.Random) -> float:
    """Seconds the simulated player thinks before he completes his move with the press: a
    share of the moves past the 12 s delay (KSI 3.5.5), so the clocks run down; 0 for the
    others and for every other command."""
    if type(command) is not c.PressClock or rng.random() >= THINK_SHARE:
        return 0.0
    return rng.uniform(*THINK_S)


def demo_command(state: st.MatchState, rng: random.Random, at_ms: int) -> c.Command:
    """The next command of a simulated clocked match: the clock's, else the simulator's —
    one the engine accepts now."""
    for command in (clock_command(state, at_ms), *(simulated(state, rng) for _ in range(TRIES))):
        if command is None:
            continue
        try:
            decide(state, command)
        except RuleViolation:
            continue
        return command
    raise RuntimeError("the simulator found no command the engine accepts")


def _open(service: CompetitionService) -> uuid.UUID:
    """The newest run if unfinished, else the next one set up and drawn."""
    n = 1
    while True:
        try:
            _, state = service.state(run_id(n))
        except CompetitionNotFound:
            break
        if not state.finished:
            return run_id(n)
        n += 1
    comp_id = run_id(n)
    guide = msgspec.structs.replace(GUIDE, name=f"{GUIDE.name} #{n}")
    people = [(f"k{i}", Person(name, 1975 + i, "F" if i % 2 == 0 else "M")) for i, name in
              enumerate(PLAYERS)]  # fmt: skip
    commands = setup_commands(guide, people, seed=n, at=now())
    service.create(comp_id, commands[0], command_id=uuid.uuid5(comp_id, "0"), meta=META)
    for i, command in enumerate(commands[1:], 1):
        version, _ = service.state(comp_id)
        service.execute(comp_id, command, expected_version=version,
                        command_id=uuid.uuid5(comp_id, str(i)), meta=META)  # fmt: skip
    return comp_id


class Run:
    """The backgammon run being played now."""

    def __init__(self) -> None:
        self.comp_id: uuid.UUID | None = None


async def run_backgammon(ctx, service: CompetitionService, pace, started) -> None:
    """The director and the two simulated tables, once korona's run is open (`started()`), so
    the console's list shows korona's first."""
    while not started():
        await asyncio.sleep(0.5)
    run, bg, rng = Run(), ctx.plays.of("backgammon"), random.Random()
    async with asyncio.TaskGroup() as group:
        group.create_task(_direct(service, run, rng))
        for table in TABLES:
            group.create_task(_table(bg, service, run, table, random.Random(rng.random()), pace))


async def _direct(service: CompetitionService, run: Run, rng: random.Random) -> None:
    """The backgammon run's head judge: call, draw, finish; the next run after a finished one."""
    while True:
        try:
            if run.comp_id is None:
                run.comp_id = await anyio.to_thread.run_sync(_open, service)
            version, state = await anyio.to_thread.run_sync(service.state, run.comp_id)
            if state.finished:
                await asyncio.sleep(30)
                run.comp_id = None
                continue
            command = next_command(state, TABLES, rng.randrange(10**6), now())
            if command is not None:
                await anyio.to_thread.run_sync(_give, service, run.comp_id, command, version)
        except Exception:  # the demo must never take the server down
            log.exception("demo backgammon director: trying again")
            await asyncio.sleep(5)
        await asyncio.sleep(1)


def _give(service: CompetitionService, comp_id: uuid.UUID, command, version: int) -> None:
    service.execute(comp_id, command, expected_version=version, command_id=uuid.uuid4(), meta=META)


def _called_here(bg: Matches, service, run: Run, table: int) -> uuid.UUID | None:
    """The backgammon stream called to this table, not over, once the processor started it."""
    if run.comp_id is None:
        return None
    _, state = service.state(run.comp_id)
    for match_id, called in state.calls.items():
        if called == table and match_id not in state.results:
            stream = match_stream(run.comp_id, match_id)
            try:
                match, _, _ = history(bg, stream)
            except MatchNotFound:
                return None  # not started yet
            return None if match.over else stream
    return None


class Players:
    """A table's simulated players for one match: `sim` draws their commands (seeded so the
    match passes through a Crawford game), `think` how long they think before a press."""

    def __init__(self, seed: int, think: random.Random) -> None:
        self.sim, self.think = random.Random(seed), think


def _step(bg: Matches, stream: uuid.UUID, players: Players, meta, pending):
    """One command of the simulated players: True once stored, False once the match is over,
    or (seconds to think, the press) for a press to complete after thinking."""
    state, version, _ = history(bg, stream)
    if state.over:
        return False
    at = int(time.time() * 1000)
    command = pending or demo_command(state, players.sim, at)
    if pending is None and (think := think_s(command, players.think)):
        return think, command
    if type(command) is c.PressClock:
        command = msgspec.structs.replace(command, at_ms=at)  # pressed after the thinking
    bg.execute(stream, command, expected_version=version, command_id=uuid.uuid4(), meta=meta)
    return True


def crawford_seed(state: st.MatchState, first: int, tries: int = 200) -> int:
    """A seed whose simulated match, from `state` on, passes through a Crawford game (KSI
    4.4.4): the demo's final always shows one (the first seed when none of `tries` does)."""
    for seed in range(first, first + tries):
        rng, now, at = random.Random(seed), state, 0
        while not now.over and not now.game.crawford:
            at += 1500
            now = fold(decide(now, demo_command(now, rng, at)), now)
        if now.game.crawford:
            return seed
    return first


def _players(bg: Matches, stream: uuid.UUID, rng: random.Random) -> Players:
    state, _, _ = history(bg, stream)
    return Players(crawford_seed(state, rng.randrange(10**6)), rng)


async def _table(bg, service, run: Run, table: int, rng: random.Random, pace) -> None:
    """Play whatever the backgammon run has called to this table, command by command."""
    meta = {**META, "device_id": f"demo-table-{table}"}
    while True:
        try:
            stream = await anyio.to_thread.run_sync(_called_here, bg, service, run, table)
            if stream is None:
                await asyncio.sleep(1)
                continue
            players = await anyio.to_thread.run_sync(_players, bg, stream, rng)
            pending = None
            while done := await anyio.to_thread.run_sync(_step, bg, stream, players, meta, pending):
                pending = None if done is True else done[1]  # a think first, then the press
                await asyncio.sleep(rng.uniform(*pace) if done is True else done[0])
        except Exception:  # a demo table must never take the server down
            log.exception("demo backgammon table %s: starting over", table)
            await asyncio.sleep(5)
