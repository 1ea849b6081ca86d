"""The lifespan: pools, the event store, the one tail loop (the live hub handed each batch
first, then the read models in lanes of their own, folding each match event once between
them in the process's fold caches) and the LISTEN task."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

import asyncpg
from litestar import Litestar

from tableside.db.pool import open_pool, session_settings
from tableside.eventlog import EventStore
from tableside.eventlog.checkpoints import public_hex
from tableside.eventlog.folder import Folders
from tableside.eventlog.listener import listen
from tableside.eventlog.runner import Tail
from tableside.live.hub import Hub
from tableside.live.live import revoke_sockets
from tableside.match.port_service import PortMatches
from tableside.server.checkpoints import checkpoint_now, load_key, periodic_checkpoints
from tableside.staff import accounts
from tableside.uplink.running import uplink
from tableside.web.auth import TokenChecks
from tableside.web.availability import Watch
from tableside.web.context import Context

log = logging.getLogger(__name__)


@contextlib.asynccontextmanager
async def lifespan(app: Litestar) -> AsyncIterator[None]:
    """Open everything in order, run the background tasks, close in reverse."""
    ctx: Context = app.state.tableside
    url, size = ctx.settings.database, ctx.settings.db_pool_size
    ctx.pool = app.state.db_pool = await open_pool(ctx.settings, reset=_keep_session)
    wait = ctx.settings.db_acquire_seconds + ctx.settings.db_statement_seconds
    ctx.token_checks = TokenChecks(ctx.pool, ctx.limiter, wait)
    try:
        ctx.store = await EventStore.open(
            ctx.registry,
            url,
            size,
            wait_seconds=ctx.settings.db_acquire_seconds,
            session=session_settings(ctx.settings),
        )
        ctx.plays = PortMatches(ctx.store, ctx.disciplines)
        await _first_admin(ctx)
        await load_key(ctx)
        try:
            # /health answers from the watch's first look on (its own thread: availability)
            # the federation's uplink, in a thread of its own (uplink/): never in a request
            with uplink(ctx.settings, public_hex(ctx.signer().key)):
                async with Watch(ctx).running(), running(_start(ctx)):
                    yield
            await checkpoint_now(ctx)  # the last events of this run are signed too
        finally:
            await ctx.store.aclose(ctx.settings.shutdown_seconds)
    finally:
        await _close(ctx.pool, ctx.settings.shutdown_seconds)


async def _close(pool: asyncpg.Pool, seconds: float) -> None:
    """Close the pool once its connections are back; past `seconds`, close them anyway (a
    transaction still open is rolled back by the server: nothing is stored half)."""
    try:
        await asyncio.wait_for(pool.close(), seconds)
    except TimeoutError:
        log.warning("database connections still busy after %g s; closing them", seconds)
        pool.terminate()


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


# Values kept per stream in the process's fold caches (one per kind of stream): a read model's
# lane folds a batch after the hub did; a match with more events than this between the two
# reads its stream again (correct, only slower).
FOLDED_DEPTH = 64


def _start(ctx: Context) -> list[asyncio.Task]:
    ctx.tail = tail = Tail(ctx.pool, ctx.registry)
    folders = Folders(ctx.registry, size=512, depth=FOLDED_DEPTH)
    renderers = ctx.live.followers(ctx.registry, folders=folders)
    tail.add_first(Hub(ctx.audience, renderers, ctx.live.watchers))
    for discipline in ctx.disciplines:  # each discipline's read models, in lanes of their own
        for read_model in discipline.read_models(ctx.pool, ctx.registry, folders):
            tail.add(read_model)

    def woken() -> None:
        tail.wake.set()

    ctx.on_database_back.append(woken)  # catch up at once after an outage
    url = ctx.settings.database
    ctx.audience.per_client = ctx.settings.live_per_client
    ctx.audience.behind_bytes = ctx.settings.live_behind_kib * 1024
    coros = [
        tail.run(),
        ctx.audience.run(),
        ctx.addresses.alive(ctx.pool),
        listen(url, woken, {accounts.TOKEN_CHANNEL: lambda t: revoke_sockets(ctx, t)}),
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
