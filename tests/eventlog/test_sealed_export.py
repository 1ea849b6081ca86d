"""A match's export carries a signed checkpoint: an auditor verifies it offline with the
public key alone, and any edit of the record, its seal or its checkpoint fails."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from store_events import TEST_EVENT_TYPES, GameClosed, PuckPocketed
from tableside.db import roles
from tableside.db.url import with_user
from tableside.eventlog import EventRegistry, EventStore
from tableside.eventlog.checkpoints import load_or_create_key, public_hex

TABLESIDE = str(Path(sys.executable).with_name("tableside"))


@pytest.fixture(scope="module")
def public_key(checkpoint_key: Path) -> str:
    return public_hex(load_or_create_key(checkpoint_key))


@pytest.fixture(scope="module")
def match(module_database_url: str) -> uuid.UUID:
    """A match of 6 events interleaved with another stream's, then more of the other."""
    match, other = uuid.uuid4(), uuid.uuid4()
    url = with_user(module_database_url, roles.APP_ROLE)
    with EventStore.connect(EventRegistry(*TEST_EVENT_TYPES), url) as store:
        for version in range(5):
            for stream in (match, other):
                store.append(
                    stream,
                    [PuckPocketed("Mari Tamm", version)],
                    expected_version=version,
                    command_id=uuid.uuid4(),
                )
        store.append(match, [GameClosed("Mari Tamm")], expected_version=5, command_id=uuid.uuid4())
        store.append(other, [GameClosed("Ott")], expected_version=5, command_id=uuid.uuid4())
    return match


@pytest.fixture(scope="module")
def exported(
    module_database_url: str, match: uuid.UUID, tmp_path_factory: pytest.TempPathFactory
) -> bytes:
    out = tmp_path_factory.mktemp("sealed") / "match.jsonl"
    url = with_user(module_database_url, roles.APP_ROLE)
    done = _cli(url, "export", "--stream", str(match), "--out", str(out))
    assert done.returncode == 0, done.stderr
    return out.read_bytes()


def _cli(url: str | None, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": url or ""}
    return subprocess.run(
        [TABLESIDE, "audit", *args], env=env, capture_output=True, text=True, timeout=60
    )


def _verify(data: bytes, tmp_path: Path, *key: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "record.jsonl"
    path.write_bytes(data)
    return _cli(None, "verify", "--file", str(path), *(("--public-key", *key) if key else ()))


def _header(data: bytes) -> dict:
    return json.loads(data.splitlines()[0])


def _with_header(data: bytes, header: dict) -> bytes:
    lines = data.splitlines(keepends=True)
    return json.dumps(header, separators=(",", ":")).encode() + b"\n" + b"".join(lines[1:])


def test_the_export_carries_a_checkpoint_covering_the_match(exported: bytes, public_key) -> None:
    header = _header(exported)
    checkpoint = header["checkpoint"]
    assert checkpoint["position"] == 12 and checkpoint["public_key"] == public_key
    # The other stream's events from the match's first (1) to the checkpoint (12).
    assert header["links"] == 6


def test_the_export_verifies_offline_with_the_public_key_alone(
    exported: bytes, public_key: str, tmp_path: Path
) -> None:
    done = _verify(exported, tmp_path, public_key)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("ok: 6 events") and "its signature against key" in done.stdout


def test_a_tampered_checkpoint_fails(exported: bytes, public_key: str, tmp_path: Path) -> None:
    header = _header(exported)
    header["checkpoint"]["time"] = header["checkpoint"]["time"].replace("20", "19", 1)
    done = _verify(_with_header(exported, header), tmp_path, public_key)
    assert done.returncode == 1
    assert "bad signature" in done.stdout


def test_a_checkpoint_from_another_key_fails(exported: bytes, tmp_path: Path) -> None:
    done = _verify(exported, tmp_path, "11" * 32)
    assert done.returncode == 1
    assert "not the trusted key" in done.stdout


def test_dropping_the_last_event_fails_even_with_the_header_adjusted(
    exported: bytes, public_key: str, tmp_path: Path
) -> None:
    lines = exported.splitlines(keepends=True)
    header = _header(exported)
    last_kept = json.loads(lines[5])
    header.update(events=5, head_hash=last_kept["hash"])
    data = _with_header(b"".join(lines[:6] + lines[7:]), header)
    done = _verify(data, tmp_path, public_key)
    assert done.returncode == 1
    assert "store-wide chain has no position" in done.stdout


def test_relabelling_a_link_fails(exported: bytes, public_key: str, tmp_path: Path) -> None:
    lines = exported.splitlines(keepends=True)
    link = json.loads(lines[-1])
    link["version"] += 1
    lines[-1] = json.dumps(link).encode() + b"\n"
    done = _verify(b"".join(lines), tmp_path, public_key)
    assert done.returncode == 1
    assert "the checkpoint says" in done.stdout


def test_a_stripped_seal_is_said_unsealed_and_fails_with_the_key(
    exported: bytes, public_key: str, tmp_path: Path
) -> None:
    """The seal, its anchor and its link lines removed: the chain still holds, but nothing
    ties the record to a signed checkpoint any more, and the answer says so (#29)."""
    header = _header(exported)
    assert header["checkpoint"] is not None
    header.update(checkpoint=None, anchor="", links=0)
    kept = [line for line in exported.splitlines(keepends=True)[1:] if b'"kind":"link"' not in line]
    stripped = _with_header(b"".join([exported.splitlines(keepends=True)[0], *kept]), header)
    done = _verify(stripped, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("ok, unsealed: 6 events"), done.stdout
    assert "no seal" in done.stdout
    done = _verify(stripped, tmp_path, public_key)
    assert done.returncode == 1
    assert "no checkpoint in the file" in done.stdout


def test_without_the_key_the_signature_is_only_self_consistent(
    exported: bytes, tmp_path: Path
) -> None:
    done = _verify(exported, tmp_path)
    assert done.returncode == 0
    assert "(give --public-key)" in done.stdout


def test_audit_verify_stream_sees_a_removed_last_event(
    module_database_url: str, match: uuid.UUID, exported: bytes
) -> None:
    """After the export's checkpoint, removing the match's last event is found by --stream."""
    import psycopg

    url = with_user(module_database_url, roles.APP_ROLE)
    assert _cli(url, "verify", "--stream", str(match)).returncode == 0
    with psycopg.connect(module_database_url) as conn:
        conn.execute("SET session_replication_role = replica")
        conn.execute(
            "DELETE FROM stored_events WHERE originator_id = %s AND originator_version = 6",
            (match,),
        )
    done = _cli(url, "verify", "--stream", str(match))
    assert done.returncode == 1, done.stdout


def test_an_export_without_the_servers_key_signs_nothing(database_url: str, tmp_path: Path) -> None:
    """A key made on the auditor's machine would sign checkpoints the server's key refutes."""
    import psycopg

    url = with_user(database_url, roles.APP_ROLE)
    stream = uuid.uuid4()
    with EventStore.connect(EventRegistry(*TEST_EVENT_TYPES), url) as store:
        store.append(stream, [PuckPocketed("Ott", 1)], expected_version=0, command_id=uuid.uuid4())
    missing = tmp_path / "nowhere" / "key.pem"
    done = subprocess.run(
        [TABLESIDE, "audit", "export", "--stream", str(stream)],
        env={**os.environ, "DATABASE_URL": url, "TABLESIDE_KEY_FILE": str(missing)},
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 0
    assert b"exported without a seal" in done.stderr
    assert _header(done.stdout)["checkpoint"] is None
    assert not missing.exists()
    with psycopg.connect(url) as conn:
        assert conn.execute("SELECT count(*) FROM event_checkpoints").fetchone() == (0,)


def test_a_garbled_link_is_a_problem_not_a_crash(
    exported: bytes, public_key: str, tmp_path: Path
) -> None:
    lines = exported.splitlines(keepends=True)
    link = json.loads(lines[-1])
    link["hash"] = "zz" + link["hash"][2:]
    lines[-1] = json.dumps(link).encode() + b"\n"
    done = _verify(b"".join(lines), tmp_path, public_key)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "bad seal" in done.stdout
