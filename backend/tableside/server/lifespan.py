"""The lifespan: pools, the event store, the tail loop (projections first), the hub and the
LISTEN task."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

import anyio.to_thread
import asyncpg
from litestar import Litestar

from tableside.eventlog import EventStore
from tableside.eventlog.listener import listen
from tableside.eventlog.runner import Tail
from tableside.live.hub import Hub
from tableside.live.live import revoke_sockets
from tableside.match.backgammon.projection import backgammon_folds
from tableside.match.projections import all_projections
from tableside.match.projections.runner import ProjectionRunner
from tableside.match.service import MatchService
from tableside.server.checkpoints import checkpoint_now, load_key, periodic_checkpoints
from tableside.staff import accounts
from tableside.web.availability import watch
from tableside.web.context import Context

log = logging.getLogger(__name__)


@contextlib.asynccontextmanager
async def lifespan(app: Litestar) -> AsyncIterator[None]:
    """Open everything in order, run the background tasks, close in reverse."""
    ctx: Context = app.state.tableside
    url, size = ctx.settings.database_url, ctx.settings.db_pool_size
    ctx.pool = app.state.db_pool = await asyncpg.create_pool(
        url, min_size=1, max_size=size, reset=_keep_session
    )
    try:
        ctx.store = await anyio.to_thread.run_sync(EventStore.connect, ctx.registry, url, size)
        ctx.matches = MatchService(ctx.store)
        await _first_admin(ctx)
        await load_key(ctx)
        try:
            async with running(_start(ctx)):
                yield
            await checkpoint_now(ctx)  # the last events of this run are signed too
        finally:
            await anyio.to_thread.run_sync(ctx.store.close)
    finally:
        await ctx.pool.close()


async def _keep_session(_: asyncpg.Connection) -> None:
    """A pool connection goes back as it is: nothing in the house sets session state on one
    (no SET, LISTEN — the listener has its own connection — advisory lock or open cursor),
    and asyncpg rolls back a transaction left open before calling this. The default reset is
    a round trip per release (`RESET ALL; UNLISTEN *; …`)."""


@contextlib.asynccontextmanager
async def running(tasks: list[asyncio.Task]) -> AsyncIterator[None]:
    """Yield while background tasks run; cancel them and wait for them on the way out."""
    try:
        yield
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def _start(ctx: Context) -> list[asyncio.Task]:
    ctx.tail = tail = Tail(ctx.pool, ctx.registry)
    tail.add(ProjectionRunner(ctx.pool, ctx.registry, all_projections()))
    tail.add(backgammon_folds(ctx.pool, ctx.registry))
    hub = Hub(ctx)

    def woken() -> None:
        tail.wake.set()
        hub.wake.set()

    ctx.on_database_back.append(woken)  # catch up at once after an outage
    url = ctx.settings.database_url
    ctx.audience.per_client = ctx.settings.live_per_client
    ctx.audience.behind_bytes = ctx.settings.live_behind_kib * 1024
    coros = [
        tail.run(),
        hub.run(),
        ctx.audience.run(),
        listen(url, woken, {accounts.TOKEN_CHANNEL: lambda t: revoke_sockets(ctx, t)}),
        watch(ctx),
    ]
    if ctx.settings.checkpoint_minutes > 0:
        coros.append(periodic_checkpoints(ctx))
    if ctx.settings.demo:
        from tableside.demo import run_demo

        coros.append(run_demo(ctx))
    return [asyncio.create_task(c) for c in coros]


async def _first_admin(ctx: Context) -> None:
    """The first head-judge account from TABLESIDE_ADMIN_USER / _PASSWORD, if set."""
    s = ctx.settings
    if (
        s.admin_user
        and s.admin_password
        and await accounts.add_account(ctx.pool, s.admin_user, "head_judge", s.admin_password)
    ):
        log.warning("created head judge account %r", s.admin_user)
