"""Shared fixtures: one PostgreSQL server per session, fresh migrated databases on demand.

Any suite may use these (they need nothing pre-started; CI is a fresh clone):

- ``pg_server_url`` (session): superuser URL of the server's ``postgres`` database —
  ``TEST_DATABASE_URL`` if set, otherwise an embedded PostgreSQL in a temp dir that is
  stopped and deleted after the session.
- ``migrated_template`` (session): name of a database with every schema/ migration applied
  as ``tableside_owner``, with ``tableside_app`` granted what the server needs.
- ``app_url(url)``: the same database as the server's least-privilege role (every server the
  suite starts connects as it, so the whole suite exercises least privilege).
- ``new_database`` (session): call ``new_database()`` → URL of a fresh clone of the
  template (``CREATE DATABASE … TEMPLATE``, ~tens of ms); the session's own server is
  deleted whole at the end (a given one has every clone dropped).
- ``module_database_url`` (module): one fresh migrated database per test module.
- ``database_url`` (function): one fresh migrated database per test.
- ``server`` / ``head`` (module): a real server process on the module's database, and its
  head judge logged in (``support/harness.py``).

The folders follow the backend's slices (docs/floorplan.md): ``eventlog/``, ``korona`` rules in
``rules/``, ``backgammon/``, ``match/``, ``competition/``, ``live/``, ``web/``, ``staff/``,
``foundation/`` (serve, health, demo), ``fitness/``, and ``browser/`` for the PWA's faces in
Chromium; ``support/`` holds what several share (the server harness, played matches).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import psycopg
import pytest
from support.harness import Api, Server
from tableside.db import migrations, roles
from tableside.db.embedded import EmbeddedPostgres
from tableside.db.url import with_dbname, with_user
from tableside.eventlog.checkpoints import load_or_create_key, public_hex


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Files marked `long` first (a stable sort: files stay whole and in order). `make test`
    runs two workers that take whole files (`-n 2 --dist loadfile`); a long file taken last
    would run alone at the end."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)


# Durability buys nothing in a throwaway test server; these make CREATE DATABASE cheap.
_FAST_SETTINGS = ("fsync = off", "full_page_writes = off", "synchronous_commit = off")


@pytest.fixture(scope="session", autouse=True)
def checkpoint_key(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The session's checkpoint signing key file (TABLESIDE_KEY_FILE, inherited by every
    server and CLI the tests start), so no test writes a key into the checkout; its
    witness log is off unless a test names one."""
    path = tmp_path_factory.mktemp("keys") / "checkpoint-ed25519.pem"
    load_or_create_key(path)  # as the first `tableside serve` would
    before = {k: os.environ.get(k) for k in ("TABLESIDE_KEY_FILE", "TABLESIDE_CHECKPOINT_LOG")}
    os.environ["TABLESIDE_KEY_FILE"] = str(path)
    # One key signs every test database: a shared witness log would mix their checkpoints.
    # The tests of the log give it a path of their own (tests/eventlog/test_witnesses.py).
    os.environ["TABLESIDE_CHECKPOINT_LOG"] = "off"
    yield path
    for name, value in before.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


@pytest.fixture(scope="session", autouse=True)
def pool_guard(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Every server the suite starts runs with the pool guard on (issue 28): a task that holds
    a pooled connection and asks for another fails loudly, and says so in this file; the
    session fails if anything was written there."""
    path = tmp_path_factory.mktemp("pool-guard") / "nested-acquisitions.txt"
    path.touch()
    before = {k: os.environ.get(k) for k in ("TABLESIDE_POOL_GUARD", "TABLESIDE_POOL_GUARD_FILE")}
    os.environ.update(TABLESIDE_POOL_GUARD="1", TABLESIDE_POOL_GUARD_FILE=str(path))
    yield path
    for key, value in before.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value
    found = path.read_text()
    assert not found, f"a task held a pooled connection and asked for another:\n{found}"


@pytest.fixture(scope="session")
def pg_server_url() -> Iterator[str]:
    """URL of the session's PostgreSQL server (superuser, database `postgres`)."""
    given = os.environ.get("TEST_DATABASE_URL")
    if given:
        yield given
        return
    workdir = Path(tempfile.mkdtemp(prefix="tableside-test-"))
    server = EmbeddedPostgres(workdir / "pgdata")
    try:
        url = server.start()
        with psycopg.connect(url, autocommit=True) as conn:
            for setting in _FAST_SETTINGS:
                conn.execute(f"ALTER SYSTEM SET {setting}")
            conn.execute("SELECT pg_reload_conf()")
        yield url
    finally:
        server.stop()
        shutil.rmtree(workdir, ignore_errors=True)


@pytest.fixture(scope="session")
def migrated_template(pg_server_url: str, checkpoint_key: Path) -> Iterator[str]:
    """Name of a database holding every migration; clones are made from it."""
    name = f"tableside_template_{uuid.uuid4().hex[:8]}"
    _admin(pg_server_url, f'CREATE DATABASE "{name}"')
    owner_url, _ = roles.setup(with_dbname(pg_server_url, name))
    migrations.apply(owner_url, app_role=roles.APP_ROLE)
    # The session key signs every server's and CLI's checkpoints (schema/011).
    assert roles.register_key(owner_url, _public_key(checkpoint_key)) is None
    yield name
    _admin(pg_server_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def new_database(pg_server_url: str, migrated_template: str) -> Iterator[Callable[[], str]]:
    """Factory: each call returns the URL of a fresh, migrated database."""
    made: list[str] = []

    def make() -> str:
        name = f"tableside_test_{uuid.uuid4().hex[:12]}"
        _admin(pg_server_url, f'CREATE DATABASE "{name}" TEMPLATE "{migrated_template}"')
        made.append(name)
        return with_dbname(pg_server_url, name)

    yield make
    if not os.environ.get("TEST_DATABASE_URL"):
        return  # the session's own server is stopped and deleted whole (dropping each: ~15 s)
    for name in made:
        _admin(pg_server_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="module")
def module_database_url(new_database: Callable[[], str]) -> str:
    """A fresh migrated database shared by one test module."""
    return new_database()


@pytest.fixture
def database_url(new_database: Callable[[], str]) -> str:
    """A fresh migrated database for one test."""
    return new_database()


def _public_key(path: Path) -> bytes:
    return bytes.fromhex(public_hex(load_or_create_key(path)))


def app_url(url: str) -> str:
    """The database at `url` as the server's role (no owner, no superuser)."""
    return with_user(url, roles.APP_ROLE)


def _admin(url: str, statement: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(statement)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def server(module_database_url: str) -> Iterator[Server]:
    """A running server (a real `uvicorn` process) on this module's database."""
    srv = Server(module_database_url).start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def head(server: Server) -> Api:
    """The head judge, logged in."""
    return Api(server.base).login()
