"""`uvicorn --factory tableside.federation.asgi:from_env`: the federation from the
environment (its database must exist and be migrated: `tableside federation serve` does)."""

from __future__ import annotations

from tableside.federation.app import create_app
from tableside.federation.config import FederationSettings
from tableside.federation.public.router import public_router
from tableside.federation.register.routes import registrar_router
from tableside.federation.relay.app import RelayApp, relay_lifespan
from tableside.federation.relay.routes import RELAY_ROUTES


def from_env() -> RelayApp:
    """Settings from TABLESIDE_FEDERATION_*."""
    return build(FederationSettings.from_env())


def build(settings: FederationSettings) -> RelayApp:
    """The federation's app: the read side's routers join here, and the remote live relay
    (its routes, its lifespan, its websocket: decision 0195)."""
    app = create_app(
        settings, routers=[*public_routers(), *RELAY_ROUTES], lifespans=[relay_lifespan]
    )
    return RelayApp(app)


def public_routers() -> list:
    """The public read side's routers: the public pages (decision 0174) and the registrar's
    (decision 0171)."""
    return [public_router(), registrar_router()]
