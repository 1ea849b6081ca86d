"""The federation's Litestar app: its core routes (`routes.py`), and any more Routers a
caller hands in — the public read side mounts with one line (`create_app(settings,
routers=[public_router])`, `asgi.py`). Stateless: every node of a cluster serves any request
(no sticky sessions); what one node kept another reads from the one database."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Sequence
from typing import Any

import anyio.to_thread
from litestar import Litestar

from tableside.db.pool import open_pool
from tableside.eventlog.checkpoints import load_or_create_key
from tableside.federation.archiving import Archivist
from tableside.federation.config import MAX_BATCH_BYTES, FederationSettings
from tableside.federation.context import FederationContext
from tableside.federation.routes import ADMIN, CORE_ROUTES
from tableside.staff import accounts
from tableside.web.auth import no_token_in_url
from tableside.web.availability import AVAILABILITY_HANDLERS
from tableside.web.problems import EXCEPTION_HANDLERS
from tableside.web.security_headers import security_headers

log = logging.getLogger(__name__)


def create_app(
    settings: FederationSettings, routers: Sequence[Any] = (), lifespans: Sequence[Any] = ()
) -> Litestar:
    """The federation for a database URL already resolved in `settings`, with `routers`
    (the read side's) beside the core's routes, and `lifespans` after the core's (the relay's:
    the pool is open)."""
    if not settings.database_url:
        raise ValueError("the federation needs settings.database_url (resolve it first)")
    app = Litestar(
        route_handlers=[*CORE_ROUTES, *routers],
        lifespan=[lifespan, *lifespans],
        exception_handlers={**EXCEPTION_HANDLERS, **AVAILABILITY_HANDLERS},
        guards=[no_token_in_url],
        before_send=[security_headers()],
        request_max_body_size=MAX_BATCH_BYTES,
    )
    app.state.federation = FederationContext(settings)
    return app


@contextlib.asynccontextmanager
async def lifespan(app: Litestar) -> AsyncIterator[None]:
    """The pool and the federation's key (made on first start, 0600), the first admin."""
    ctx: FederationContext = app.state.federation
    ctx.key = await anyio.to_thread.run_sync(load_or_create_key, ctx.settings.signing_key_path)
    ctx.pool = ctx.read_pool = await open_pool(ctx.settings.as_venue_settings())
    try:
        if ctx.settings.read_url:
            replica = ctx.settings.replace(database_url=ctx.settings.read_url)
            ctx.read_pool = await open_pool(replica.as_venue_settings())
        await _first_admin(ctx)
        ctx.archivist = Archivist(ctx.pool)
        ctx.archivist.kept(None)  # what was kept before this start, archived
        yield
    finally:
        if ctx.archivist:
            await ctx.archivist.close()
        if ctx.read_pool is not ctx.pool:
            await ctx.read_pool.close()
        await ctx.pool.close()


async def _first_admin(ctx: FederationContext) -> None:
    """TABLESIDE_FEDERATION_ADMIN_USER / _PASSWORD: the first federation admin, if set."""
    s = ctx.settings
    if (
        s.admin_user
        and s.admin_password
        and await accounts.add_account(ctx.pool, s.admin_user, ADMIN, s.admin_password)
    ):
        log.warning("created federation admin account %r", s.admin_user)
