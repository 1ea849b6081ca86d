"""The server's role (tableside_app) appends and reads events but cannot rewrite them.

The suite's databases are migrated by tableside_owner and every server the suite starts
connects as tableside_app (tests/conftest.py, tests/support/harness.py), so every other test
also runs under these privileges.
"""

from __future__ import annotations

import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from store_events import TEST_EVENT_TYPES, PuckPocketed
from tableside.db import roles
from tableside.db.url import with_user
from tableside.eventlog import EventRegistry, EventStore

TABLESIDE = str(Path(sys.executable).with_name("tableside"))


@pytest.fixture
def app_url(database_url: str) -> str:
    return with_user(database_url, roles.APP_ROLE)


@pytest.fixture
def app_store(app_url: str) -> Iterator[EventStore]:
    with EventStore.connect(EventRegistry(*TEST_EVENT_TYPES), app_url) as store:
        yield store


def _one_event(store: EventStore) -> uuid.UUID:
    stream = uuid.uuid4()
    store.append(stream, [PuckPocketed("Mari", 1)], expected_version=0, command_id=uuid.uuid4())
    return stream


def _as_app(app_url: str, statement: str) -> None:
    with psycopg.connect(app_url, autocommit=True) as conn:
        conn.execute(statement)  # type: ignore[arg-type]


def test_the_server_role_appends_and_reads_through_the_store(app_store: EventStore) -> None:
    stream = _one_event(app_store)
    again = app_store.append(
        stream, [PuckPocketed("Ott", 2)], expected_version=1, command_id=uuid.uuid4()
    )
    assert again.positions == (2,)
    assert [e.version for e in app_store.read(stream)] == [1, 2]


def test_the_server_role_is_neither_superuser_nor_owner(app_url: str) -> None:
    with psycopg.connect(app_url) as conn:
        assert roles.can_rewrite_history(conn) is None
        user = conn.execute("SELECT current_user").fetchone()
    assert user == (roles.APP_ROLE,)


def test_the_server_role_cannot_update_events(app_store: EventStore, app_url: str) -> None:
    _one_event(app_store)
    with pytest.raises(psycopg.errors.InsufficientPrivilege, match="permission denied"):
        _as_app(app_url, "UPDATE stored_events SET topic = 'x'")


def test_the_server_role_cannot_delete_events(app_store: EventStore, app_url: str) -> None:
    _one_event(app_store)
    with pytest.raises(psycopg.errors.InsufficientPrivilege, match="permission denied"):
        _as_app(app_url, "DELETE FROM stored_events")
    assert len(app_store.read_all()) == 1


def test_the_server_role_cannot_truncate_events(app_store: EventStore, app_url: str) -> None:
    _one_event(app_store)
    with pytest.raises(psycopg.errors.InsufficientPrivilege, match="permission denied"):
        _as_app(app_url, "TRUNCATE stored_events")
    assert len(app_store.read_all()) == 1


def test_the_server_role_cannot_disable_the_triggers(app_url: str) -> None:
    with pytest.raises(psycopg.errors.InsufficientPrivilege, match="must be owner"):
        _as_app(app_url, "ALTER TABLE stored_events DISABLE TRIGGER stored_events_no_update_delete")
    with pytest.raises(psycopg.errors.InsufficientPrivilege, match="must be owner"):
        _as_app(app_url, "ALTER TABLE stored_events DISABLE TRIGGER ALL")


def test_the_server_role_cannot_set_session_replication_role(app_url: str) -> None:
    with pytest.raises(psycopg.errors.InsufficientPrivilege, match="session_replication_role"):
        _as_app(app_url, "SET session_replication_role = replica")


def test_the_server_role_cannot_change_the_checkpoints(app_url: str) -> None:
    for statement in (
        "UPDATE event_checkpoints SET position = 0",
        "DELETE FROM event_checkpoints",
        "TRUNCATE event_checkpoints",
    ):
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="permission denied"):
            _as_app(app_url, statement)


def test_the_server_role_writes_its_read_models(app_url: str) -> None:
    with psycopg.connect(app_url) as conn:
        conn.execute("UPDATE projection_tracking SET position = 0 WHERE name = 'live'")
        conn.execute("TRUNCATE match_live")
        conn.execute("UPDATE projection_tracking SET position = 0 WHERE name = 'backgammon'")
        conn.execute("DELETE FROM backgammon_matches")  # a rebuild empties it (schema 120)
        conn.rollback()


def test_print_grants_names_the_role_and_protects_the_events() -> None:
    done = subprocess.run(
        [TABLESIDE, "migrate", "--print-grants", "--role", "scorer"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE ON ALL TABLES" in done.stdout
    assert 'ON stored_events, event_checkpoints FROM "scorer"' in done.stdout
    assert "SECURITY DEFINER" in done.stdout


def test_a_later_table_is_granted_without_touching_the_grants(
    database_url: str, app_url: str
) -> None:
    """A migration from another area (a new read model) is covered by the next run's grants."""
    owner_url = with_user(database_url, roles.OWNER_ROLE)
    with psycopg.connect(owner_url, autocommit=True) as conn:
        conn.execute("CREATE TABLE later_read_model (k int PRIMARY KEY)")
        conn.execute(
            "CREATE OR REPLACE FUNCTION tableside_append_later() RETURNS int"
            " LANGUAGE sql AS 'SELECT 1'"
        )
        roles.grant(conn, roles.APP_ROLE)
    with psycopg.connect(app_url) as conn:
        conn.execute("INSERT INTO later_read_model VALUES (1)")
        conn.execute("DELETE FROM later_read_model")
        definer = conn.execute(
            "SELECT prosecdef FROM pg_proc WHERE proname = 'tableside_append_later'"
        ).fetchone()
    assert definer == (True,)


def test_even_the_owner_cannot_change_a_checkpoint_with_the_triggers_on(
    app_store: EventStore, app_url: str, database_url: str, checkpoint_key: Path
) -> None:
    from tableside.eventlog.checkpoint_db import take
    from tableside.eventlog.checkpoints import load_or_create_key

    _one_event(app_store)
    with psycopg.connect(app_url, autocommit=True) as conn:
        assert take(conn, load_or_create_key(checkpoint_key)) is not None
    owner_url = with_user(database_url, roles.OWNER_ROLE)
    for statement in (
        "UPDATE event_checkpoints SET position = 1",
        "DELETE FROM event_checkpoints",
        "TRUNCATE event_checkpoints",
    ):
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="append-only"):
            _as_app(owner_url, statement)
