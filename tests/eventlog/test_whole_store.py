"""Issue 33: `audit export --all` writes the whole store sealed with every checkpoint, and
`tableside restore` builds a store from it elsewhere with the same chain heads and the same
checkpoints, verified; one changed byte and the restore refuses, writing nothing."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from store_events import TEST_EVENT_TYPES, GameClosed, PuckPocketed
from tableside.db import roles
from tableside.db.embedded import EmbeddedPostgres
from tableside.db.url import with_user
from tableside.eventlog import EventRegistry, EventStore

TABLESIDE = str(Path(sys.executable).with_name("tableside"))
STREAM_HEADS = (
    "SELECT DISTINCT ON (originator_id) originator_id, originator_version, hash"
    " FROM stored_events ORDER BY originator_id, originator_version DESC"
)
GLOBAL_HEAD = "SELECT notification_id, global_hash FROM stored_events ORDER BY 1 DESC LIMIT 1"
CHECKPOINTS = (
    "SELECT position, head_hash, signed_at, public_key, signature FROM event_checkpoints"
    " ORDER BY position, signed_at"
)


def _tableside(url: str, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [TABLESIDE, *args],
        env={**os.environ, "DATABASE_URL": url, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def _append(url: str, streams: list[uuid.UUID], rounds: range) -> None:
    with EventStore.connect(EventRegistry(*TEST_EVENT_TYPES), url) as store:
        for version in rounds:
            for stream in streams:
                store.append(
                    stream,
                    [PuckPocketed("Mari Tamm", version), GameClosed("Ott")],
                    expected_version=2 * version,
                    command_id=uuid.uuid4(),
                )


def _heads(url: str) -> dict[str, object]:
    with psycopg.connect(url) as conn:
        return {
            "streams": conn.execute(STREAM_HEADS).fetchall(),
            "global": conn.execute(GLOBAL_HEAD).fetchone(),
            "checkpoints": conn.execute(CHECKPOINTS).fetchall(),
        }


@pytest.fixture(scope="module")
def source(module_database_url: str) -> str:
    """Three interleaved streams; a checkpoint after the first rounds, more events after."""
    url = with_user(module_database_url, roles.APP_ROLE)
    streams = [uuid.uuid4() for _ in range(3)]
    _append(url, streams, range(2))
    done = _tableside(url, "audit", "checkpoint")
    assert done.returncode == 0, done.stderr
    _append(url, streams, range(2, 4))
    return url


@pytest.fixture(scope="module")
def exported(source: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("whole") / "store.jsonl"
    done = _tableside(source, "audit", "export", "--all", str(out))
    assert done.returncode == 0, done.stderr
    return out


def test_the_export_holds_every_event_and_every_checkpoint(source: str, exported: Path) -> None:
    header = json.loads(exported.read_bytes().splitlines()[0])
    heads = _heads(source)
    # The head was signed by the export itself: two checkpoints, the seal at the head.
    assert header["events"] == heads["global"][0] == 24
    assert [c["position"] for c in header["checkpoints"]] == [12, 24]
    assert header["checkpoint"]["head_hash"] == bytes(heads["global"][1]).hex()


@pytest.fixture
def data_dir() -> Iterator[Path]:
    """Outside pytest's temp root, which the embedded server's system user cannot reach."""
    work = Path(tempfile.mkdtemp(prefix="tableside-restore-"))
    yield work / "pgdata"
    shutil.rmtree(work, ignore_errors=True)


def test_a_restore_elsewhere_has_the_same_chain_heads_and_checkpoints(
    source: str, exported: Path, data_dir: Path
) -> None:
    done = _tableside("", "restore", str(exported), "--data-dir", str(data_dir))
    assert done.returncode == 0, done.stderr
    assert "verified" in done.stdout
    server = EmbeddedPostgres(data_dir)
    try:
        restored = _heads(server.start())
    finally:
        server.stop()
    assert restored == _heads(source)


def test_the_restored_store_passes_audit_verify(exported: Path, database_url: str) -> None:
    owner = with_user(database_url, roles.OWNER_ROLE)
    done = _tableside(owner, "restore", str(exported))
    assert done.returncode == 0, done.stderr
    verified = _tableside(with_user(database_url, roles.APP_ROLE), "audit", "verify")
    assert verified.returncode == 0, verified.stdout
    assert "24 events in 3 streams" in verified.stdout and "2 checkpoints" in verified.stdout


def _changed(data: bytes, at: bytes, offset: int) -> bytes:
    """`data` with one byte changed: the byte `offset` after the first `at`."""
    i = data.index(at) + offset
    return data[:i] + bytes([data[i] ^ 0x01]) + data[i + 1 :]


@pytest.mark.parametrize(
    ("at", "offset"),
    [
        (b'"Mari Tamm"', 2),  # an event's content
        (b'"recorded_at":"', len('"recorded_at":"2026-01-01T00:00:0')),  # a time
        (b'"signature":"', len('"signature":"')),  # the first checkpoint
        (b'"global_hash":"', len('"global_hash":"')),  # the store-wide chain
    ],
)
def test_one_changed_byte_and_the_restore_refuses(
    exported: Path, database_url: str, tmp_path: Path, at: bytes, offset: int
) -> None:
    tampered = tmp_path / "store.jsonl"
    tampered.write_bytes(_changed(exported.read_bytes(), at, offset))
    owner = with_user(database_url, roles.OWNER_ROLE)
    done = _tableside(owner, "restore", str(tampered))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "refused, nothing restored" in done.stderr and "Traceback" not in done.stderr
    with psycopg.connect(owner) as conn:
        assert conn.execute("SELECT count(*) FROM stored_events").fetchone() == (0,)


def test_a_store_that_holds_events_is_not_restored_into(exported: Path, source: str) -> None:
    done = _tableside(source, "restore", str(exported))
    assert done.returncode == 1
    assert "already holds events" in done.stderr


def test_an_empty_store_is_said_to_be_empty_not_keyless(new_database, tmp_path: Path) -> None:
    """Issue 45: `audit export --all` on a new store blamed a missing key that was there."""
    from tableside.eventlog.checkpoints import load_or_create_key

    key = tmp_path / "keys" / "checkpoint-ed25519.pem"
    load_or_create_key(key)
    url = with_user(new_database(), roles.APP_ROLE)
    env = {"TABLESIDE_KEY_FILE": str(key), "TABLESIDE_CHECKPOINT_LOG": "off"}
    done = _tableside(url, "audit", "export", "--all", str(tmp_path / "store.jsonl"), **env)
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert "no events yet" in done.stderr and "no key" not in done.stderr, done.stderr
