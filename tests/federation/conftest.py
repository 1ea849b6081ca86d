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
from support.harness import Api, Server
from tableside.db import roles
from tableside.db.url import with_dbname, with_user
from tableside.federation.database import migrate

FED_ADMIN = ("fedadmin", "fed-admin-secret-1")


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


def federation_server(url: str, folder: Path, port: int | None = None) -> Server:
    """A federation process on `url` (as its server role), its key in `folder`."""
    env = {
        "TABLESIDE_FEDERATION_DATABASE_URL": with_user(url, roles.APP_ROLE),
        "TABLESIDE_FEDERATION_KEY_FILE": str(folder / "federation-ed25519.pem"),
        "TABLESIDE_FEDERATION_ADMIN_USER": FED_ADMIN[0],
        "TABLESIDE_FEDERATION_ADMIN_PASSWORD": FED_ADMIN[1],
    }
    server = Server(url, env=env, factory="tableside.federation.asgi:from_env")
    if port is not None:
        server.port = port
    return server


@pytest.fixture
def federation(federation_database: str, tmp_path: Path) -> Iterator[Server]:
    srv = federation_server(federation_database, tmp_path).start()
    yield srv
    srv.stop()


def admin(base: str) -> Api:
    """The federation admin, signed in."""
    api = Api(base)
    r = api.http.post(
        "/api/federation/login", json={"username": FED_ADMIN[0], "password": FED_ADMIN[1]}
    )
    r.raise_for_status()
    api.token = r.json()["token"]
    return api


def enrolment_code(base: str, venue_name: str = "Tallinna klubi") -> str:
    staff = admin(base)
    r = staff.http.post(
        "/api/federation/codes", json={"venue_name": venue_name}, headers=staff.headers()
    )
    r.raise_for_status()
    return r.json()["code"]


def venue_env(federation_base: str, code: str, folder: Path, **more: str) -> dict[str, str]:
    """What a venue server pushing to the federation is started with."""
    return {
        "TABLESIDE_FEDERATION_URL": federation_base,
        "TABLESIDE_FEDERATION_CODE": code,
        "TABLESIDE_UPLINK_DIR": str(folder),
        "TABLESIDE_UPLINK_SECONDS": "0.1",
        "TABLESIDE_UPLINK_BACKOFF_MAX": "1",
        **more,
    }
