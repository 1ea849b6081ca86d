"""`uvicorn --factory tableside.app.asgi:from_env`: the app from the environment (DATABASE_URL)."""

from __future__ import annotations

from litestar import Litestar

from tableside.app import create_app
from tableside.settings import Settings


def from_env() -> Litestar:
    """Settings from the environment; the database must exist and be migrated."""
    return create_app(Settings.from_env())
