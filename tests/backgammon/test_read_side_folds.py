"""One fold per backgammon event per process on the read side (issue 31): the live feed's
renderer and the `backgammon` read model both consume every event of a match, and the
engine's evolve runs once for each — the one that follows later (the read model, in its lane
of the tail) is handed the state the hub's renderer made, from the process's one fold cache.

The real app in process (the tail, hub and lanes as the lifespan builds them, real
PostgreSQL); the match's events are decided by the engine beforehand and appended to the
store command by command (so the write side folds nothing here), each append waited for until
the read model has it. Every call of the engine's evolve is counted by the state it starts
from and the event it applies.
"""

from __future__ import annotations

import asyncio
import importlib
import random
import uuid
from collections import Counter
from functools import partial

import asyncpg
import pytest
from litestar.testing import AsyncTestClient
from support.harness import app_settings, until
from tableside.disciplines.backgammon import commands as c
from tableside.disciplines.backgammon import decide, evolve, initial_state
from tableside.disciplines.backgammon.simulate import next_command
from tableside.eventlog import EventStore
from tableside.server import create_app
from tableside.server.registry import build_registry

evolution = importlib.import_module("tableside.disciplines.backgammon.evolve")  # the module
_TRACKED = "SELECT position FROM projection_tracking WHERE name = 'backgammon'"
_ROW = "SELECT version, status FROM backgammon_matches WHERE match_id = $1"


def _commands_events(seed: int, length: int = 1) -> list[tuple]:
    """A whole match as the events each command stored (decided before anything is counted)."""
    rng = random.Random(seed)
    state, stored = initial_state(), []
    command = c.CreateMatch(match_id="x", player_a="Ása", player_b="Bjarni", length=length)
    while True:
        events = decide(state, command)
        stored.append(events)
        for event in events:
            state = evolve(state, event)
        if state.over:
            return stored
        command = next_command(state, rng)


def _counting(monkeypatch: pytest.MonkeyPatch) -> Counter:
    """Count every evolve step of the engine by (version before, event type): the dispatch
    table every import of `evolve` goes through, and the undo it handles itself."""
    calls: Counter = Counter()

    def wrapped(step):
        def counted(state, event):
            calls[(state.version, type(event).__name__)] += 1
            return step(state, event)

        return counted

    for kind, step in list(evolution.HANDLERS.items()):
        monkeypatch.setitem(evolution.HANDLERS, kind, wrapped(step))
    monkeypatch.setattr(evolution, "_undone", wrapped(evolution._undone))
    return calls


async def test_each_backgammon_event_is_folded_once_per_process_on_the_read_side(
    database_url, monkeypatch
):
    match = _commands_events(seed=31)
    assert sum(map(len, match)) < 400  # a subscriber's queue holds them all (`Audience.limit`)
    app = create_app(app_settings(database_url))
    writer = EventStore.connect(build_registry(), database_url, 2)
    db = await asyncpg.connect(database_url)
    stream = uuid.uuid4()
    try:
        async with AsyncTestClient(app):
            ctx = app.state.tableside
            hall = ctx.audience.subscribe("hall:backgammon", lambda: None)

            async def hub_started() -> bool:
                return bool(ctx.tail.firsts) and ctx.tail.firsts[0] >= 0

            assert await until(hub_started, 20), "the tail's hub never started"
            calls = _counting(monkeypatch)
            version, last = 0, 0
            for events in match:
                result = await asyncio.to_thread(
                    partial(
                        writer.append,
                        stream,
                        list(events),
                        expected_version=version,
                        command_id=uuid.uuid4(),
                    )
                )
                version, last = version + len(events), result.positions[-1]

                async def projected(position: int = last) -> bool:
                    return await db.fetchval(_TRACKED) >= position

                assert await until(projected, 20), f"the read model stood still at v{version}"
            monkeypatch.undo()
            row = await db.fetchrow(_ROW, stream)
            published = [data for _, data in list(hall.queue)]
    finally:
        writer.close()
        await db.close()

    assert tuple(row) == (version, "over")  # the read model consumed every event
    assert len(published) == version  # and the live feed published a delta for each
    expected = Counter((v, type(e).__name__) for v, e in enumerate(e for es in match for e in es))
    assert sum(expected.values()) == version
    not_once = {k: n for k, n in calls.items() if n != 1}
    assert calls == expected, (
        f"evolve ran {sum(calls.values())} times for {version} events; "
        f"(version before, event): times, where not once: {dict(list(not_once.items())[:5])}"
    )
