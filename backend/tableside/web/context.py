"""What the lifespan builds and handlers use, kept on `app.state.tableside`."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import asyncpg
from litestar.datastructures import State

from tableside.eventlog import EventRegistry, EventStore
from tableside.eventlog.checkpoints import Signer
from tableside.settings import Settings
from tableside.web.availability import Health
from tableside.web.ratelimit import RateLimiter

if TYPE_CHECKING:  # filled by server/, the kernel names no slice at run time
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
    pool: asyncpg.Pool | None = None
    store: EventStore | None = None
    disciplines: Disciplines | None = None  # the registry (server/disciplines.py)
    plays: PortMatches | None = None  # every discipline's matches through its port
    tables: TablesNow | None = None  # which match each table plays now, made by create_app
    audience: Audience | None = None  # the live feed's subscribers, made by create_app
    addresses: SharedAddresses | None = None  # /live sockets per address, on every node
    live: LiveChannels | None = None  # the slices' renderers and openers, made by create_app
    origins: frozenset[str] = frozenset()
    sockets: dict = field(default_factory=dict)  # token_id -> set of close callbacks
    login_clients: RateLimiter = field(default_factory=lambda: RateLimiter("login", 20 / 60, 20))
    pdf_clients: RateLimiter = field(default_factory=lambda: RateLimiter("pdf", 1, 60))
    signing_key: Signer | None = None  # checkpoints and their log (server/checkpoints.py)
    database_down: bool = False  # kept by availability.Watch; API requests get 503 meanwhile
    health: Health = field(default_factory=Health)  # what the watch saw last (GET /health)
    on_database_back: list = field(default_factory=list)  # callbacks when it answers again
    token_checks: Any = None  # the command routes' batched token checks (web.auth.TokenChecks)
    tail: Any = None  # the one tail loop (eventlog.runner.Tail), set by the lifespan
    # A walk-up match's table check: `async with hall(table)` holds the hall's lock with the
    # table free, or raises 409 (competition.hall.table_free), set by the competition lifespan.
    # It yields the connection holding the lock: the command's reads run on it (issue 28).
    hall: Callable[[int], AbstractAsyncContextManager[asyncpg.Connection]] | None = None


def context(state: State) -> Context:
    """The Context of the app a handler runs in."""
    return state.tableside
