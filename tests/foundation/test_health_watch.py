"""The health watch measures the database, not the loop (issue 46): a request loop kept busy
for seconds at a time is not a dead database, one slow answer is not an outage, and a refused
connection is one at once."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace

from litestar.testing import AsyncTestClient
from support.harness import free_port
from tableside.server import create_app
from tableside.settings import Settings
from tableside.web.availability import Health, Watch

HOG_SECONDS = 2.5  # the request loop held this long at a time, a turn's gap between
BUSY_SECONDS = 10.0


async def _hog(until: float) -> None:
    while time.monotonic() < until:
        time.sleep(HOG_SECONDS)  # the point: a loop busy with other work
        await asyncio.sleep(0)


async def test_a_busy_request_loop_is_not_a_dead_database(module_database_url: str) -> None:
    """On main the watch pinged on the request loop and timed its answer there: with the loop
    held 2.5 s at a time (a flood's work), the answer was read past the 2 s bound and the
    watch called the database unreachable; the gate then refused every API request."""
    app = create_app(Settings(database_url=module_database_url))
    ctx = app.state.tableside
    seen: list[tuple[str, bool]] = []
    async with AsyncTestClient(app) as client:
        until = time.monotonic() + BUSY_SECONDS
        # on the app's own loop (the test client runs it in a thread of its own)
        hog = client.blocking_portal.start_task_soon(_hog, until)
        while time.monotonic() < until:
            seen.append((ctx.health.state, ctx.database_down))
            await asyncio.sleep(0.05)
        await asyncio.wrap_future(hog)
        seen.append((ctx.health.state, ctx.database_down))
        reply = await client.get("/health")
    assert len(seen) >= 3
    assert all(state != "unreachable" and not down for state, down in seen), seen
    assert reply.status_code == 200, reply.text


def _ctx(url: str) -> SimpleNamespace:
    return SimpleNamespace(
        settings=Settings(database_url=url),
        health=Health(),
        pool=None,
        database_down=False,
        on_database_back=[],
    )


async def test_a_refused_connection_is_unreachable_at_once() -> None:
    ctx = _ctx(f"postgresql://nobody@127.0.0.1:{free_port()}/nothing")
    await Watch(ctx).look()
    assert ctx.health.state == "unreachable" and ctx.database_down
    assert "refused" in ctx.health.reason.lower() or "connect" in ctx.health.reason.lower()


async def test_a_slow_answer_is_not_unreachable_until_it_stays_silent(
    module_database_url: str,
) -> None:
    """No answer within the bound (here far too short to answer) twice: still ok; the third
    look in a row without one: unreachable, saying how long it was silent."""
    ctx = _ctx(module_database_url)
    watch = Watch(ctx, answer_within=0.0001, silent_looks=3)
    for _ in range(2):
        await watch.look()
        assert ctx.health.state == "ok" and not ctx.database_down
    await watch.look()
    assert ctx.health.state == "unreachable" and ctx.database_down
    assert "no answer for" in ctx.health.reason
    watch.answer_within = 5.0
    await watch.look()  # it answers again: back to ok
    assert ctx.health.state == "ok" and not ctx.database_down
    watch._drop()
