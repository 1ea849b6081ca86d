"""A federation for the tests: its own database on the session's PostgreSQL (migrated from
schema/federation/ as its owner, its server role granted as `federation serve` grants it),
a real federation process (`tableside.federation.asgi:from_env`) on it, and a venue server
pushing to it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from support.federation import federation_server
from support.federation import new_federation_database as fresh_database
from support.harness import Server


@pytest.fixture
def new_federation_database(pg_server_url: str) -> Callable[[], str]:
    """Factory: the URL (superuser) of a fresh, migrated federation database."""
    return lambda: fresh_database(pg_server_url)


@pytest.fixture
def federation_database(new_federation_database) -> str:
    return new_federation_database()


@pytest.fixture
def federation(federation_database: str, tmp_path: Path) -> Iterator[Server]:
    srv = federation_server(federation_database, tmp_path).start()
    yield srv
    srv.stop()
