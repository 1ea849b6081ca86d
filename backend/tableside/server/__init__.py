"""The web app: `create_app(settings)` is the one composition root; nothing connects at import.

The lifespan (`lifespan.py`) opens an asyncpg pool for reads (`app.state.db_pool`, also
`app.state.tableside.pool`), the EventStore for writes, and starts the projection runner, the
live-feed hub and the process's one LISTEN connection. Routes: commands (`command_routes`),
public reads (`read_routes`), auditor reads (`audit_routes`), staff and judge tokens
(`staff_routes`), the websocket feed (`live`), `/health`, the PWA (`tableside.web`);
OpenAPI at `/schema`.
"""

from __future__ import annotations

import asyncio
from typing import Any

from litestar import Litestar
from litestar.config.cors import CORSConfig
from litestar.connection import ASGIConnection
from litestar.handlers.base import BaseRouteHandler
from litestar.openapi import OpenAPIConfig

from tableside.competition.http.reads import COMPETITION_READ_ROUTES
from tableside.competition.http.routes import COMPETITION_COMMAND_ROUTES
from tableside.competition.live import competition_now
from tableside.competition.runtime import COMPETITION_SERVICES
from tableside.demo.hold import DEMO_ROUTES
from tableside.live.addresses import SharedAddresses
from tableside.live.audience import Audience
from tableside.live.channels import LiveChannels
from tableside.live.direct import RAW_SEND
from tableside.live.live import LIVE_PATH, live_app
from tableside.match.discipline import Disciplines
from tableside.match.http.audit_routes import AUDIT_ROUTES
from tableside.match.http.export_routes import EXPORT_ROUTES
from tableside.match.http.finder import find_matches
from tableside.match.http.port_routes import match_routes
from tableside.match.http.problems import MATCH_HANDLERS
from tableside.match.http.receipt_routes import RECEIPT_ROUTES
from tableside.match.http.spectator_routes import SPECTATOR_ROUTES
from tableside.match.port_feed import port_feed, port_snapshot
from tableside.match.tables_now import TablesNow
from tableside.plugins.backgammon.http.federation_routes import FEDERATION_ROUTES
from tableside.plugins.backgammon.http.reads import BACKGAMMON_READ_ROUTES
from tableside.plugins.backgammon.http.routes import BACKGAMMON_ROUTES
from tableside.plugins.korona.http.export_routes import EXPORT_ROUTES as PROTOCOL_ROUTES
from tableside.plugins.korona.http.judge_routes import JUDGE_ROUTES
from tableside.plugins.korona.http.read_routes import READ_ROUTES
from tableside.server.api_reference import ApiReference
from tableside.server.checkpoints import latest_checkpoint
from tableside.server.competition_lifespan import competition_lifespan
from tableside.server.cut import cut_response
from tableside.server.disciplines import house_disciplines
from tableside.server.lifespan import lifespan
from tableside.server.openapi_errors import declare as declare_problems
from tableside.server.pwa import web_routes
from tableside.server.registry import build_registry
from tableside.server.setup import SETUP_ROUTES
from tableside.server.witnesses import WITNESS_ROUTES
from tableside.settings import Settings
from tableside.staff.staff_routes import STAFF_ROUTES
from tableside.web.auth import no_token_in_url
from tableside.web.availability import AVAILABILITY_HANDLERS, database_gate
from tableside.web.bodies import StrictRequest
from tableside.web.compression import JsonGzip
from tableside.web.context import SERVICES, Context
from tableside.web.guards import BODY_LIMIT, refuse_nul
from tableside.web.health import health, servers
from tableside.web.problems import EXCEPTION_HANDLERS
from tableside.web.ratelimit import RateLimiter
from tableside.web.security_headers import security_headers
from tableside.web.transport import no_secrets_in_clear, own_origins


def live_channels(tables: TablesNow, disciplines: Disciplines) -> LiveChannels:
    """What each slice puts on the live feed: each discipline's match deltas, the snapshots
    it claims, the read models that hold its channels' snapshots and its hall, as its port
    registers them (`Discipline.feed`: korona's,
    backgammon's with `hall=backgammon`; any other discipline's through the port feed); a
    competition's documents; and what follows the feed: which match each table plays now."""
    feeds = [d.feed for d in disciplines if d.feed is not None]
    return LiveChannels(
        renderers=[*(f.renderer for f in feeds), port_feed(disciplines)],
        openers={"competition": competition_now},
        watchers=[tables.follow],
        snapshotters=[
            *(f.snapshotter for f in feeds if f.snapshotter),
            port_snapshot(disciplines),
        ],
        projected={kind: read for f in feeds for kind, read in f.projected.items()},
        halls=frozenset({"all", *(f.hall for f in feeds if f.hall)}),
    )


def create_app(settings: Settings, disciplines: Disciplines | None = None) -> Litestar:
    """Build the Litestar app for a database URL already resolved in `settings`, recording
    `disciplines` (the house's, `server/disciplines.py`, unless a test app hands its own)."""
    if not settings.database_url:
        raise ValueError("create_app needs settings.database_url (resolve the database first)")
    disciplines = disciplines or house_disciplines()
    app = TablesideApp(
        route_handlers=declare_problems(routes(disciplines)),
        lifespan=[lifespan, competition_lifespan],
        dependencies={**SERVICES, **COMPETITION_SERVICES},
        exception_handlers=_exception_handlers(),
        before_request=refuse_nul,
        guards=[_app_guards],
        before_send=[security_headers(settings.peers)],
        middleware=[JsonGzip],  # the API's JSON gzipped when asked (decision 0139)
        cors_config=peer_cors(settings.peers),
        request_class=StrictRequest,
        request_max_body_size=BODY_LIMIT,
        openapi_config=OpenAPIConfig(
            title="Tableside", version="0.1.0", path="/schema", render_plugins=[ApiReference()]
        ),
    )
    app.state.settings = settings
    app.state.tableside = build_context(settings, disciplines)
    return app


def _exception_handlers() -> dict[int | type[Exception], Any]:
    """The kernel's problem details, the availability's 503s and the match slice's."""
    handlers = (EXCEPTION_HANDLERS, AVAILABILITY_HANDLERS, MATCH_HANDLERS)
    return {kind: handler for each in handlers for kind, handler in each.items()}


def build_context(settings: Settings, disciplines: Disciplines) -> Context:
    """What the handlers share before the lifespan opens the pools: the disciplines, the live
    feed's parts, the event registry, the rate limits and the origins a browser may write
    from."""
    tables = TablesNow(tuple(t.current for t in disciplines.tables()))
    audience = Audience()
    return Context(
        audience=audience,
        addresses=SharedAddresses(audience),
        live=live_channels(tables, disciplines),
        disciplines=disciplines,
        tables=tables,
        settings=settings,
        registry=build_registry(disciplines),
        limiter=RateLimiter("command", settings.command_rate, settings.command_burst),
        login_clients=RateLimiter(
            "login", settings.login_per_minute / 60, settings.login_per_minute
        ),
        pdf_clients=RateLimiter("pdf", settings.pdf_per_minute / 60, settings.pdf_per_minute),
        origins=frozenset((*(settings.allowed_origins or own_origins(settings)), *settings.peers)),
    )


def routes(disciplines: Disciplines) -> list:
    """Every route of every slice: the kernel's, the match routes of every discipline, the
    disciplines' own reads, the staff's, the competition's and the PWA's."""
    return [
        health,
        servers,
        *match_routes(disciplines),
        *READ_ROUTES,
        *AUDIT_ROUTES,
        find_matches,
        *STAFF_ROUTES,
        *JUDGE_ROUTES,
        *EXPORT_ROUTES,
        *PROTOCOL_ROUTES,
        latest_checkpoint,
        *WITNESS_ROUTES,
        *RECEIPT_ROUTES,
        *SPECTATOR_ROUTES,
        *web_routes(),
        *COMPETITION_COMMAND_ROUTES,
        *COMPETITION_READ_ROUTES,
        *DEMO_ROUTES,
        *BACKGAMMON_ROUTES,
        *BACKGAMMON_READ_ROUTES,
        *FEDERATION_ROUTES,
        *SETUP_ROUTES,
    ]


def peer_cors(peers: tuple[str, ...]) -> CORSConfig | None:
    """The faces of a peer server (TABLESIDE_PEERS) may call this API: a judge pad loaded
    from the primary goes on recording here once this standby is promoted (issue 33)."""
    if not peers:
        return None
    return CORSConfig(
        allow_origins=list(peers),
        allow_methods=["GET", "POST", "PUT", "PATCH", "DELETE"],
        allow_headers=["Authorization", "Content-Type", "Accept"],
        allow_credentials=False,
        max_age=600,
    )


async def _app_guards(connection: ASGIConnection, handler: BaseRouteHandler) -> None:
    """The app-wide guards as one: Litestar copies the route handler for each guard it runs,
    on every request (issue 32: what a command costs besides its append)."""
    await database_gate(connection, handler)
    await no_token_in_url(connection, handler)
    await no_secrets_in_clear(connection, handler)


class TablesideApp(Litestar):
    """The Litestar app, with /live served below it as a plain ASGI app keeping the server's
    own `send` in the scope (once a live socket has caught up, the fan-out writes to it
    directly: live/direct.py); and answering 503 to a request the server cut on its way
    down."""

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "websocket" and scope["path"] == LIVE_PATH:
            # below Litestar: no connection object, wrappers or middleware frames per socket
            # (live/connection.py, decision 0143)
            scope[RAW_SEND] = send
            await live_app(self, scope, receive, send)
            return
        try:
            await super().__call__(scope, receive, send)
        except asyncio.CancelledError:
            if scope["type"] != "http" or not await cut_response(scope, send):
                raise
