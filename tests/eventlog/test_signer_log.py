"""A log is evidence only while it is whole (#41): every attack on the signer's log beside a
store that has checkpoints makes `audit verify` (and `--stream`) exit 1 naming what is
missing, and the log's lines are chained (each names the previous line's hash).

Store as in test_witnesses.py (3 streams × 3 versions), then three checkpoints with an event
appended between them, so the log has three lines (positions 9, 10, 11).
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest
from store_events import TEST_EVENT_TYPES, PuckPocketed
from tableside.eventlog import EventRegistry, EventStore
from tableside.eventlog.signer_log import FIRST, line_hash
from tamper import attack
from test_witnesses import audit


@pytest.fixture
def log(tmp_path: Path) -> Path:
    return tmp_path / "signer" / "checkpoint-ed25519.log"


@pytest.fixture
def signed(streams, app_url: str, log: Path) -> list[uuid.UUID]:
    """Three checkpoints in the store and the log, an event between each."""
    with EventStore.connect(EventRegistry(*TEST_EVENT_TYPES), app_url) as store:
        for version in (3, 4, 5):
            if version > 3:
                store.append(
                    streams[0],
                    [PuckPocketed("Ott", version)],
                    expected_version=version - 1,
                    command_id=uuid.uuid4(),
                )
            done = audit(app_url, "checkpoint", log=log)
            assert done.returncode == 0, done.stderr
    assert len(log.read_bytes().splitlines()) == 3
    return streams


def _both_fail(app_url: str, log: Path, stream: uuid.UUID, *words: str) -> None:
    for args in (("verify",), ("verify", "--stream", str(stream))):
        done = audit(app_url, *args, log=log)
        assert done.returncode == 1, (args, done.stdout, done.stderr)
        for word in words:
            assert word in done.stdout, (args, done.stdout)


def test_the_log_lines_are_chained(signed, app_url, log) -> None:
    lines = log.read_bytes().splitlines(keepends=True)
    prevs = [json.loads(line)["prev"] for line in lines]
    assert prevs == [FIRST, line_hash(lines[0]), line_hash(lines[1])]
    assert audit(app_url, "verify", log=log).returncode == 0
    done = audit(app_url, "verify", "--stream", str(signed[0]), log=log)
    assert done.returncode == 0, done.stdout
    assert "checkpoint at position 11" in done.stdout  # the newest covering, from the log too


def test_a_deleted_log_is_an_error_naming_the_missing_heads(signed, app_url, log) -> None:
    log.unlink()
    _both_fail(app_url, log, signed[0], "is missing", "3 of the store's 3 signed heads")


def test_a_log_truncated_to_nothing_is_an_error(signed, app_url, log) -> None:
    log.write_bytes(b"")
    _both_fail(app_url, log, signed[0], "is empty", "3 of the store's 3 signed heads")


def test_a_log_cut_short_is_an_error(signed, app_url, log) -> None:
    log.write_bytes(b"".join(log.read_bytes().splitlines(keepends=True)[:1]))
    _both_fail(app_url, log, signed[0], "lacks them", "2 of the store's 3 signed heads")


def test_a_middle_line_removed_breaks_the_chain(signed, app_url, log) -> None:
    lines = log.read_bytes().splitlines(keepends=True)
    log.write_bytes(lines[0] + lines[2])
    _both_fail(app_url, log, signed[0], "line 2 names a previous line", "removed or rewritten")


def test_a_rewritten_line_breaks_the_chain(signed, app_url, log) -> None:
    lines = log.read_bytes().splitlines(keepends=True)
    first = json.loads(lines[0])
    first["head_hash"] = "00" * 32
    log.write_bytes(json.dumps(first).encode() + b"\n" + b"".join(lines[1:]))
    _both_fail(app_url, log, signed[0], "line 1 has a bad signature")


def test_checkpoints_deleted_with_the_log_whole_are_an_error(
    signed, app_url, database_url, log
) -> None:
    attack(database_url, "DELETE FROM event_checkpoints WHERE position = 10")
    _both_fail(app_url, log, signed[0], "1 stored checkpoints were deleted", "position 10")


def test_the_signer_refuses_to_sign_beside_a_broken_log(signed, app_url, log) -> None:
    lines = log.read_bytes().splitlines(keepends=True)
    log.write_bytes(lines[0] + lines[2])
    with EventStore.connect(EventRegistry(*TEST_EVENT_TYPES), app_url) as store:
        store.append(
            signed[1], [PuckPocketed("Ott", 4)], expected_version=3, command_id=uuid.uuid4()
        )
    done = audit(app_url, "checkpoint", log=log)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "nothing signed, the record is disputed" in done.stderr and "line 2" in done.stderr
    assert log.read_bytes() == lines[0] + lines[2]


@pytest.mark.parametrize(
    ("field", "value"), [("head_hash", "00" * 32), ("time", "2026-01-01T00:00:00+00:00")]
)
def test_a_rewritten_last_line_fails_verify_and_verify_stream(
    signed, app_url, log, field: str, value: str
) -> None:
    """#50: `--stream` answered "ok" when the log's last line was rewritten (its head or its
    time): no later line names it, and the stream was sealed by the stored checkpoint. Every
    line is signed now: the rewrite breaks its signature."""
    lines = log.read_bytes().splitlines(keepends=True)
    last = json.loads(lines[-1])
    last[field] = value
    log.write_bytes(b"".join(lines[:-1]) + json.dumps(last).encode() + b"\n")
    done = audit(app_url, "verify", "--stream", str(signed[0]), log=log)
    assert done.returncode == 1, done.stdout  # main: "ok", exit 0
    _both_fail(app_url, log, signed[0], "line 3 has a bad signature")
