"""`uvicorn --factory tableside.federation.asgi:from_env`: the federation from the
environment (its database must exist and be migrated: `tableside federation serve` does)."""

from __future__ import annotations

from litestar import Litestar

from tableside.federation.app import create_app
from tableside.federation.config import FederationSettings


def from_env() -> Litestar:
    """Settings from TABLESIDE_FEDERATION_*; the read side's routers join here."""
    return create_app(FederationSettings.from_env(), routers=public_routers())


def public_routers() -> list:
    """The public read side's routers (its own package under federation/), once there."""
    return []
