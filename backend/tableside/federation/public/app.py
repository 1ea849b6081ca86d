"""The read side's own small app (decision 0174): the public Router (and the registrar's,
decision 0171) over a federation database, for the read side's tests and for a read replica
serving only the public pages (`uvicorn --factory tableside.federation.public.app:from_env`,
DATABASE_URL naming it). The federation's own app (the core's) mounts the same Routers beside
its routes."""

from __future__ import annotations

import contextlib
import os
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from litestar import Litestar, Request, get

from tableside.db.pool import open_pool
from tableside.federation.register.routes import registrar_router
from tableside.settings import Settings
from tableside.web.auth import no_token_in_url
from tableside.web.availability import AVAILABILITY_HANDLERS
from tableside.web.problems import EXCEPTION_HANDLERS

from .router import public_router


@dataclass
class PublicContext:
    """What the Router's handlers read: the pool (`request.app.state.federation.pool`)."""

    settings: Settings
    pool: Any = None


@get("/health", summary="The public pages answer, their database too")
async def health(request: Request) -> dict:
    """200 only once the database answered a query (the core's app has its own /health)."""
    async with request.app.state.federation.pool.acquire() as conn:
        await conn.fetchval("SELECT 1")
    return {"status": "ok", "database": "answered"}


def create_public_app(settings: Settings) -> Litestar:
    """The public pages over `settings.database_url`."""
    app = Litestar(
        route_handlers=[public_router(), registrar_router(), health],
        lifespan=[_lifespan],
        exception_handlers={**EXCEPTION_HANDLERS, **AVAILABILITY_HANDLERS},
        guards=[no_token_in_url],
    )
    app.state.federation = PublicContext(settings)
    return app


def from_env() -> Litestar:
    """The app for uvicorn's factory: DATABASE_URL names the federation's database."""
    return create_public_app(Settings.from_env(os.environ))


@contextlib.asynccontextmanager
async def _lifespan(app: Litestar) -> AsyncIterator[None]:
    ctx: PublicContext = app.state.federation
    ctx.pool = await open_pool(ctx.settings)
    try:
        yield
    finally:
        await ctx.pool.close()
