"""The web app: `create_app(settings)` is the one composition root; nothing connects at import.

The lifespan owns an asyncpg pool (`app.state.db_pool`) for the read side and health;
`app.state.settings` holds the Settings it was built with. Route modules add handlers to
`ROUTES`-style lists and are wired here.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import asyncpg
from litestar import Litestar

from tableside.app.health import health
from tableside.settings import Settings


def create_app(settings: Settings) -> Litestar:
    """Build the Litestar app for a database URL already resolved in `settings`."""
    if not settings.database_url:
        raise ValueError("create_app needs settings.database_url (resolve the database first)")

    @asynccontextmanager
    async def db_pool(app: Litestar) -> AsyncIterator[None]:
        app.state.db_pool = await asyncpg.create_pool(
            settings.database_url, min_size=1, max_size=settings.db_pool_size
        )
        try:
            yield
        finally:
            await app.state.db_pool.close()

    app = Litestar(route_handlers=[health], lifespan=[db_pool])
    app.state.settings = settings
    return app
