"""`uvicorn --factory tableside.server.asgi:from_env`: the app from the environment."""

from __future__ import annotations

from litestar import Litestar

from tableside.server import create_app
from tableside.settings import Settings


def from_env() -> Litestar:
    """Settings from the environment; the database must exist and be migrated."""
    return create_app(Settings.from_env())
