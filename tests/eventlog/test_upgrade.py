"""A database made before the roles and the store-wide chain (as the superuser, with events)
is taken over by the owner role and its events get their global links, in order, once."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import psycopg
from store_events import TEST_EVENT_TYPES, PuckPocketed
from tableside.db import migrations, roles
from tableside.db.url import with_dbname
from tableside.eventlog import EventRegistry, EventStore

TABLESIDE = str(Path(sys.executable).with_name("tableside"))
NEW = ("006_global_chain.sql", "007_event_checkpoints.sql")


def test_an_old_database_is_adopted_and_backfilled(pg_server_url: str, tmp_path: Path) -> None:
    old_schema = tmp_path / "schema"
    old_schema.mkdir()
    for path in migrations.SCHEMA_DIR.glob("*.sql"):
        if path.name not in NEW and int(path.name[:3]) < 8:
            shutil.copy(path, old_schema)
    name = f"tableside_old_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(pg_server_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')  # type: ignore[arg-type]
    url = with_dbname(pg_server_url, name)
    try:
        migrations.apply(url, old_schema)  # as the superuser, the way it used to be
        with psycopg.connect(url) as conn:
            columns = conn.execute(
                "SELECT count(*) FROM information_schema.columns"
                " WHERE table_name = 'stored_events' AND column_name = 'global_hash'"
            ).fetchone()
        assert columns == (0,)
        _old_events(url)
        owner_url, app_url = roles.setup(url)
        applied = migrations.apply(owner_url, app_role=roles.APP_ROLE)
        assert [m.name for m in applied][:2] == list(NEW)
        with psycopg.connect(url) as conn:
            owners = conn.execute(
                "SELECT DISTINCT pg_get_userbyid(relowner) FROM pg_class c"
                " JOIN pg_namespace n ON n.oid = c.relnamespace"
                " WHERE n.nspname = 'public' AND relkind = 'r'"
            ).fetchall()
        assert owners == [(roles.OWNER_ROLE,)]
        with EventStore.connect(EventRegistry(*TEST_EVENT_TYPES), app_url) as store:
            store.append(
                uuid.uuid4(), [PuckPocketed("Ott", 1)], expected_version=0, command_id=uuid.uuid4()
            )
        done = subprocess.run(
            [TABLESIDE, "audit", "verify"],
            env={**os.environ, "DATABASE_URL": app_url},
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        assert done.stdout.startswith("ok, unwitnessed, unsigned: 7 events in 3 streams")
    finally:
        with psycopg.connect(pg_server_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')  # type: ignore[arg-type]


def _old_events(url: str) -> None:
    """Six events through the old trigger (no global_hash column yet)."""
    streams = [uuid.uuid4(), uuid.uuid4()]
    with psycopg.connect(url) as conn:
        for version in range(1, 4):
            for stream in streams:
                conn.execute(
                    "SELECT * FROM tableside_append(%s, '{}',"
                    " ARRAY[ROW(%s, %s, 'test.PuckPocketed', %s)]::stored_event_uuid[])",
                    (uuid.uuid4(), stream, version, b'{"player":"Mari","puck":1}'),
                )
