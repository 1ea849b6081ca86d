"""What the process shares, kept on `app.state.tableside`, and handed to handlers through
Litestar's dependency injection (`SERVICES`: a handler names `pool`, `store`, `settings` or
`ctx` among its parameters; decision 0221).

The Context is filled in three places: `server.build_context` (what exists before the
database: the disciplines, the live feed's parts, the rate limits), the lifespan
(`server/lifespan.py`: the pool, the store, the services on them, the tail loop, the key) and
the competition's lifespan (`hall`). The fields the lifespan sets have no default: reading
one before the lifespan ran is an AttributeError (a bug), never a None to test for.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeAlias
from uuid import UUID

import asyncpg
from litestar.datastructures import State
from litestar.di import Provide
from litestar.params import SkipValidation

from tableside.eventlog import EventRegistry, EventStore
from tableside.eventlog.checkpoints import Signer
from tableside.settings import Settings
from tableside.web.auth import TokenChecks
from tableside.web.availability import Health
from tableside.web.ratelimit import RateLimiter

if TYPE_CHECKING:  # filled by server/, the kernel names no slice at run time
    from tableside.eventlog.runner import Tail
    from tableside.live.addresses import SharedAddresses
    from tableside.live.audience import Audience
    from tableside.live.channels import LiveChannels
    from tableside.match.discipline import Disciplines
    from tableside.match.port_service import PortMatches
    from tableside.match.tables_now import TablesNow


@dataclass
class Context:
    """The process's pools, store, services and live-feed parts."""

    settings: Settings
    registry: EventRegistry
    limiter: RateLimiter
    disciplines: Disciplines  # the registry (server/disciplines.py)
    tables: TablesNow  # which match each table plays now
    audience: Audience  # the live feed's subscribers
    addresses: SharedAddresses  # /live sockets per address, on every node
    live: LiveChannels  # the slices' renderers and openers
    origins: frozenset[str] = frozenset()
    sockets: dict[UUID, set[Callable[[], None]]] = field(default_factory=dict)  # a token's closers
    login_clients: RateLimiter = field(default_factory=lambda: RateLimiter("login", 20 / 60, 20))
    pdf_clients: RateLimiter = field(default_factory=lambda: RateLimiter("pdf", 1, 60))
    signing_key: Signer | None = None  # checkpoints and their log (server/checkpoints.py)
    database_down: bool = False  # kept by availability.Watch; API requests get 503 meanwhile
    health: Health = field(default_factory=Health)  # what the watch saw last (GET /health)
    on_database_back: list[Callable[[], None]] = field(default_factory=list)  # when it answers
    # A walk-up match's table check: `async with hall(table)` holds the hall's lock with the
    # table free, or raises 409 (competition.hall.table_free), set by the competition lifespan.
    # It yields the connection holding the lock: the command's reads run on it (issue 28).
    hall: Callable[[int], AbstractAsyncContextManager[asyncpg.Connection]] | None = None
    # Set by the lifespan (server/lifespan.py) before the first request:
    pool: asyncpg.Pool = field(init=False)
    store: EventStore = field(init=False)
    plays: PortMatches = field(init=False)  # any discipline's matches through its port
    token_checks: TokenChecks = field(init=False)  # the command routes' batched token checks
    tail: Tail = field(init=False)  # the one tail loop

    def signer(self) -> Signer:
        """The key `load_key` set in the lifespan (a bug to ask before)."""
        if self.signing_key is None:
            raise RuntimeError("the signing key is loaded by the lifespan")
        return self.signing_key


def context(state: State) -> Context:
    """The Context of the app a handler runs in."""
    return state.tableside


def _pool(state: State) -> asyncpg.Pool:
    return context(state).pool


def _store(state: State) -> EventStore:
    return context(state).store


def _settings(state: State) -> Settings:
    return context(state).settings


# The app's dependencies (create_app): resolved only for a handler that names one.
SERVICES = {
    "ctx": Provide(context, sync_to_thread=False),
    "pool": Provide(_pool, sync_to_thread=False),
    "store": Provide(_store, sync_to_thread=False),
    "settings": Provide(_settings, sync_to_thread=False),
}

# What a handler names to be handed one of them. A dependency is one of the process's own
# objects, never a client's input: Litestar passes it on unvalidated (msgspec would otherwise
# check it on every request, and rebuild a dataclass such as the Context).
Pool: TypeAlias = SkipValidation[asyncpg.Pool]
Store: TypeAlias = SkipValidation[EventStore]
AppSettings: TypeAlias = SkipValidation[Settings]
Services: TypeAlias = SkipValidation[Context]
