"""A federation for the tests: its own database on the session's PostgreSQL (migrated from
schema/federation/ as its owner, its server role granted as `federation serve` grants it),
a real federation process (`tableside.federation.asgi:from_env`) on it, and a venue server
pushing to it."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import psycopg
import pytest
from support.federation import federation_server
from support.harness import Server
from tableside.db import roles
from tableside.db.url import with_dbname
from tableside.federation.database import migrate


@pytest.fixture
def new_federation_database(pg_server_url: str) -> Callable[[], str]:
    """Factory: the URL (superuser) of a fresh, migrated federation database."""

    def make() -> str:
        name = f"tableside_federation_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(pg_server_url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"'.encode())
        url = with_dbname(pg_server_url, name)
        owner_url, _ = roles.setup(url)
        migrate(owner_url, roles.APP_ROLE)
        return url

    return make


@pytest.fixture
def federation_database(new_federation_database) -> str:
    return new_federation_database()


@pytest.fixture
def federation(federation_database: str, tmp_path: Path) -> Iterator[Server]:
    srv = federation_server(federation_database, tmp_path).start()
    yield srv
    srv.stop()
