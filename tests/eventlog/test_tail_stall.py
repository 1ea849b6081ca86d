"""No consumer of the one tail loop holds another still (issue 31 point 3).

The stall that took the hub off the tail in session 12: the results processor's batch waits
on the store — a worker thread, the store's pool, the append's table lock, each bounded by 5 s
and each one a queue on a loaded machine — and in a loop that hands every batch to every
consumer in turn, nothing else moves meanwhile. The read models stood still behind it (only
the live feed, on a loop of its own, hid that); with the hub on that loop the faces stood
still too: the hall-day test's tables (20 s), the competition documents. And when the wait ran
out, the processor logged the error and moved on: the called match was never started.

Made deterministic here on the real app (in process, real PostgreSQL): the store's pool is
held at its limit by the test while a match ends, so the processor waits for a connection.
Meanwhile another match is put on table 7: the tables read model and a `table:7` subscriber
must get it (waited for, bounded) — and once the pool is free the processor finishes the
batch it waited on, skipping nothing.
"""

from __future__ import annotations

import asyncio
import random
import uuid

import asyncpg
from litestar.testing import AsyncTestClient
from support.harness import app_settings, until
from tableside.disciplines.korona.engine import decide
from tableside.disciplines.korona.simulate import new_match, play_match
from tableside.disciplines.korona.state import initial_state
from tableside.eventlog import EventStore
from tableside.match.events import MatchScheduled
from tableside.server import create_app
from tableside.server.registry import build_registry

_TRACKED = "SELECT position FROM projection_tracking WHERE name = $1"


async def _on_home(store: EventStore, work):
    """`await work()` on the store's home loop (the app's), from the test's."""
    home = store._home.loop
    if home is asyncio.get_running_loop():
        return await work()
    return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(work(), home))


async def _hold_all(store: EventStore) -> list:
    """Every connection of the store's pool, held by the test."""
    pool = store.pool

    async def one():
        return await asyncpg.Pool.acquire(pool)

    return [await _on_home(store, one) for _ in range(pool.get_max_size())]


async def _let_go(store: EventStore, held: list) -> None:
    for conn in held:
        await _on_home(store, lambda conn=conn: asyncpg.Pool.release(store.pool, conn))


def _append(store: EventStore, table: int, events: list, competition: str = "") -> tuple:
    """A match stream on `table`: (its id, the global position of its last event)."""
    stored = [events[0], MatchScheduled(table=table, competition_id=competition), *events[1:]]
    stream = uuid.uuid4()
    result = store.append(stream, stored, expected_version=0, command_id=uuid.uuid4())
    return str(stream), result.positions[-1]


async def test_a_consumer_waiting_on_the_store_holds_no_other_still(module_database_url):
    settings = app_settings(module_database_url, db_acquire_seconds=120)  # waits long
    app = create_app(settings)
    writer = EventStore.connect(build_registry(), module_database_url, 2)
    db = await asyncpg.connect(module_database_url)
    async with AsyncTestClient(app):  # the app runs on a loop of its own (another thread)
        ctx = app.state.tableside
        sub = ctx.audience.subscribe("table:7", lambda: None)

        async def tracked(name: str, position: int) -> bool:
            return await db.fetchval(_TRACKED, name) >= position

        async def delivered(match: str) -> bool:
            return any(match.encode() in data for _, data in list(sub.queue))

        store = app.state.tableside.store  # the store the processor writes through
        held = await _hold_all(store)
        try:
            # A competition match ends: the processor reads it back, waiting for the store.
            ended = list(play_match(random.Random(31), "EKML"))
            _, first = await asyncio.to_thread(
                _append, writer, 1, ended, "0f4b9b52-0000-4000-8000-000000000031"
            )
            assert await until(lambda: tracked("tables", first), 20)
            # Meanwhile a match is put on table 7.
            opening = list(decide(initial_state(), new_match(random.Random(7))))
            match, second = await asyncio.to_thread(_append, writer, 7, opening)
            moved = await until(lambda: tracked("tables", second), 15)
            seen = await until(lambda: delivered(match), 15)
            processor_done = await db.fetchval(_TRACKED, "competition_results")
        finally:
            await _let_go(store, held)
        assert processor_done < first, "the processor should still be waiting for the store"
        assert (moved, seen) == (True, True), f"tables read model moved {moved}, feed {seen}"
        # The processor finishes the batch it waited on (nothing skipped).
        assert await until(lambda: tracked("competition_results", second), 30)
    writer.close()
    await db.close()


async def test_a_batch_the_store_was_too_busy_for_is_handed_over_again_not_skipped(
    module_database_url,
):
    """The processor's wait for the store runs out (1 s here) while the pool stays full: its
    batch is tried again until the store answers — its tracking does not move past the match
    that ended (it did: the error was logged and the called match never started)."""
    settings = app_settings(module_database_url, db_acquire_seconds=1)
    app = create_app(settings)
    writer = EventStore.connect(build_registry(), module_database_url, 2)
    db = await asyncpg.connect(module_database_url)
    async with AsyncTestClient(app):

        async def tracked(name: str, position: int) -> bool:
            return await db.fetchval(_TRACKED, name) >= position

        store = app.state.tableside.store  # the store the processor writes through
        held = await _hold_all(store)
        try:
            ended = list(play_match(random.Random(32), "EKML"))
            _, last = await asyncio.to_thread(
                _append, writer, 2, ended, "0f4b9b52-0000-4000-8000-000000000032"
            )
            assert await until(lambda: tracked("tables", last), 20)
            skipped = await until(lambda: tracked("competition_results", last), 4)
        finally:
            await _let_go(store, held)
        assert not skipped, "the processor moved past a batch it could not handle"
        assert await until(lambda: tracked("competition_results", last), 30)
    writer.close()
    await db.close()
