"""What only the PostgreSQL store can promise: immutability, tamper evidence, NOTIFY."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from store_events import TEST_EVENT_TYPES, PuckPocketed
from tableside.db.url import with_dbname
from tableside.eventlog import (
    NOTIFY_CHANNEL,
    EventRegistry,
    EventStore,
    StoreNotReady,
    VersionConflict,
)
from tableside.eventlog.audit_source import records_from_database

TABLESIDE = str(Path(sys.executable).with_name("tableside"))


@pytest.fixture
def store(database_url: str) -> Iterator[EventStore]:
    with EventStore.connect(EventRegistry(*TEST_EVENT_TYPES), database_url) as store:
        yield store


def fill(store: EventStore, streams: int = 3, events: int = 3) -> list[uuid.UUID]:
    ids = [uuid.uuid4() for _ in range(streams)]
    for version in range(events):
        for stream in ids:
            store.append(
                stream,
                [PuckPocketed("Mari", version)],
                expected_version=version,
                command_id=uuid.uuid4(),
                meta={"device_id": "tab-1"},
            )
    return ids


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE stored_events SET topic = 'x'",
        "DELETE FROM stored_events",
        "TRUNCATE stored_events",
    ],
)
def test_stored_events_cannot_be_changed(
    store: EventStore, database_url: str, statement: str
) -> None:
    fill(store, streams=1, events=1)
    with (
        psycopg.connect(database_url) as conn,
        pytest.raises(psycopg.errors.InsufficientPrivilege, match="append-only"),
    ):
        conn.execute(statement)  # type: ignore[arg-type]
    assert len(store.read_all()) == 1


def test_one_changed_byte_is_named_by_audit_verify(store: EventStore, database_url: str) -> None:
    streams = fill(store)
    victim = store.read(streams[1])[1]
    with psycopg.connect(database_url, autocommit=True) as conn:
        # A superuser can switch triggers off; the chain still tells.
        conn.execute("SET session_replication_role = replica")
        conn.execute(
            "UPDATE stored_events SET state = overlay(state PLACING '7'::bytea FROM 31 FOR 1)"
            " WHERE notification_id = %s",
            (victim.position,),
        )
    audit = _audit(database_url)
    assert audit.returncode == 1, audit.stderr
    assert f"stream {victim.stream_id} version {victim.version}" in audit.stdout
    assert "hash expected" in audit.stdout
    assert _audit(database_url, "--stream", str(streams[0])).returncode == 0


def test_audit_verify_passes_on_an_untouched_store(store: EventStore, database_url: str) -> None:
    fill(store)
    audit = _audit(database_url)
    assert audit.returncode == 0, audit.stdout + audit.stderr
    assert audit.stdout.startswith("ok, unwitnessed, unsigned: 9 events in 3 streams")


def test_rejected_append_leaves_no_hole_in_the_global_order(store: EventStore) -> None:
    stream = uuid.uuid4()
    store.append(stream, [PuckPocketed("Mari", 1)], expected_version=0, command_id=uuid.uuid4())
    with pytest.raises(VersionConflict):
        store.append(stream, [PuckPocketed("Mari", 2)], expected_version=0, command_id=uuid.uuid4())
    after = store.append(
        uuid.uuid4(), [PuckPocketed("Ott", 1)], expected_version=0, command_id=uuid.uuid4()
    )
    assert after.positions == (2,)


def test_every_append_notifies_the_channel(store: EventStore, database_url: str) -> None:
    with psycopg.connect(database_url, autocommit=True) as listener:
        listener.execute(f"LISTEN {NOTIFY_CHANNEL}")
        store.append(
            uuid.uuid4(), [PuckPocketed("Mari", 1)], expected_version=0, command_id=uuid.uuid4()
        )
        notes = list(listener.notifies(timeout=5, stop_after=1))
    assert [n.channel for n in notes] == [NOTIFY_CHANNEL]


def test_verify_reads_the_database_in_global_order(store: EventStore, database_url: str) -> None:
    fill(store, streams=2, events=2)
    positions = [r.position for r in records_from_database(database_url)]
    assert positions == [1, 2, 3, 4]


def test_a_store_on_an_unmigrated_database_says_so(pg_server_url: str) -> None:
    name = f"tableside_blank_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(pg_server_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')  # type: ignore[arg-type]
    try:
        with pytest.raises(StoreNotReady, match="tableside migrate"):
            EventStore.connect(EventRegistry(), with_dbname(pg_server_url, name))
    finally:
        with psycopg.connect(pg_server_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')  # type: ignore[arg-type]


def _audit(database_url: str, *extra: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": database_url}
    return subprocess.run(
        [TABLESIDE, "audit", "verify", *extra],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
