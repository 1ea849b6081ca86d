"""The server's role cannot get round the append function or the signed checkpoints (#29).

Each attack here worked as `tableside_app` before schema/011: a plain INSERT into
stored_events past the append's lock and command-id check, a `setval` that exhausted the
checkpoints' identity sequence (every later checkpoint failed, removing the newest events went
unnoticed), and a junk checkpoint (the real head, a junk key or signature) that
`/api/checkpoints/latest` served and that made `audit verify` fail for ever.
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import psycopg
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from store_events import TEST_EVENT_TYPES, PuckPocketed
from tableside.db import roles
from tableside.db.url import with_user
from tableside.eventlog import EventRegistry, EventStore, checkpoints
from tableside.eventlog.checkpoint_db import insert, latest_checkpoint, take

TABLESIDE = str(Path(sys.executable).with_name("tableside"))


@pytest.fixture
def app_url(database_url: str) -> str:
    url = with_user(database_url, roles.APP_ROLE)
    with EventStore.connect(EventRegistry(*TEST_EVENT_TYPES), url) as store:
        for version in range(3):
            store.append(
                uuid.UUID(int=7),
                [PuckPocketed("Mari", version + 1)],
                expected_version=version,
                command_id=uuid.uuid4(),
            )
    return url


def _head(conn: psycopg.Connection) -> tuple[int, bytes]:
    row = conn.execute(
        "SELECT notification_id, global_hash FROM stored_events ORDER BY notification_id DESC"
        " LIMIT 1"
    ).fetchone()
    return row[0], bytes(row[1])


def _verify(url: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [TABLESIDE, "audit", "verify"],
        env={**os.environ, "DATABASE_URL": url},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_the_server_role_cannot_insert_events_past_the_append_function(app_url: str) -> None:
    with (
        psycopg.connect(app_url) as conn,
        pytest.raises(psycopg.errors.InsufficientPrivilege, match="permission denied"),
    ):
        conn.execute(
            "INSERT INTO stored_events (originator_id, originator_version, topic, state,"
            " command_id, meta) VALUES (%s, 4, 'PuckPocketed', '\\x7b7d', %s, '{}')",
            (uuid.UUID(int=7), uuid.uuid4()),
        )


def test_the_server_role_cannot_move_the_checkpoint_sequence(app_url: str, checkpoint_key) -> None:
    with (
        psycopg.connect(app_url, autocommit=True) as conn,
        pytest.raises(psycopg.errors.InsufficientPrivilege, match="permission denied"),
    ):
        conn.execute(
            "SELECT setval(pg_get_serial_sequence('event_checkpoints', 'checkpoint_id'),"
            " 9223372036854775807)"
        )
    with psycopg.connect(app_url, autocommit=True) as conn:  # checkpoints still work
        made = take(conn, checkpoints.load_or_create_key(checkpoint_key))
    assert made is not None and made.position == 3


def test_the_server_role_cannot_insert_a_checkpoint_directly(app_url: str, checkpoint_key) -> None:
    key = checkpoints.load_or_create_key(checkpoint_key)
    with psycopg.connect(app_url) as conn:
        position, head = _head(conn)
        good = checkpoints.sign(key, position, head)
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="permission denied"):
            conn.execute(
                "INSERT INTO event_checkpoints (position, head_hash, signed_at, public_key,"
                " signature) VALUES (%s, %s, %s, %s, %s)",
                (position, head, good.time, bytes.fromhex(good.public_key), bytes(64)),
            )


def test_a_junk_checkpoint_from_an_unregistered_key_is_refused(app_url: str) -> None:
    with psycopg.connect(app_url) as conn:
        position, head = _head(conn)
        junk = checkpoints.sign(Ed25519PrivateKey.generate(), position, head)
        with pytest.raises(psycopg.errors.CheckViolation, match="is not registered"):
            insert(conn, junk)
    with psycopg.connect(app_url) as conn:
        assert latest_checkpoint(conn) is None
    done = _verify(app_url)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_junk_signature_under_the_registered_key_is_refused(app_url: str, checkpoint_key) -> None:
    key = checkpoints.load_or_create_key(checkpoint_key)
    with psycopg.connect(app_url) as conn:
        position, head = _head(conn)
        good = checkpoints.sign(key, position, head)
        for signature in (
            bytes(64).hex(),
            f"{int(good.signature[:2], 16) ^ 1:02x}{good.signature[2:]}",
        ):
            junk = checkpoints.Checkpoint(
                good.position, good.head_hash, good.time, good.public_key, signature
            )
            with pytest.raises(psycopg.errors.CheckViolation, match="has a bad signature"):
                insert(conn, junk)
            conn.rollback()
        insert(conn, good)  # the real one goes in
        conn.commit()
    with psycopg.connect(app_url) as conn:
        assert latest_checkpoint(conn) == good
    done = _verify(app_url)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_databases_ed25519_agrees_with_the_library(database_url: str) -> None:
    """schema/011's PL/pgSQL verification: every good signature passes, every changed bit fails."""
    cases = []
    for n in range(4):
        key = Ed25519PrivateKey.generate()
        public = bytes.fromhex(checkpoints.public_hex(key))
        message = os.urandom(n * 17)
        signature = key.sign(message)
        cases.append((public, message, signature, True))
        bad = bytearray(signature)
        bad[n * 9 % 64] ^= 1 << n
        cases.append((public, message, bytes(bad), False))
        cases.append((public, message + b"x", signature, False))
    with psycopg.connect(database_url) as conn:
        for public, message, signature, expected in cases:
            row = conn.execute(
                "SELECT tableside_ed25519_verify(%s, %s, %s)", (public, message, signature)
            ).fetchone()
            assert row == (expected,), (public.hex(), message.hex(), signature.hex())
