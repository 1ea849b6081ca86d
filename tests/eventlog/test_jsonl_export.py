"""A match record exported as JSON Lines verifies offline, and fails after any edit."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from store_events import TEST_EVENT_TYPES, GameClosed, PuckPocketed
from tableside.eventlog import EventRegistry, EventStore
from tableside.eventlog.jsonl import ExportError, read_export, verify_export

TABLESIDE = str(Path(sys.executable).with_name("tableside"))


@pytest.fixture(scope="module")
def exported(module_database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One match stream of 6 events (plus another stream's noise), exported by the CLI."""
    match, other = uuid.uuid4(), uuid.uuid4()
    with EventStore.connect(EventRegistry(*TEST_EVENT_TYPES), module_database_url) as store:
        for version in range(5):
            for stream in (match, other):
                store.append(
                    stream,
                    [PuckPocketed("Mari Tamm", version)],
                    expected_version=version,
                    command_id=uuid.uuid4(),
                    meta={"device_id": "tab-1", "recorder": "judge:4"},
                )
        store.append(match, [GameClosed("Mari Tamm")], expected_version=5, command_id=uuid.uuid4())
    out = tmp_path_factory.mktemp("export") / "match.jsonl"
    done = _cli(module_database_url, "export", "--stream", str(match), "--out", str(out))
    assert done.returncode == 0, done.stderr
    return out


def test_export_has_a_header_and_one_line_per_event(exported: Path) -> None:
    header, records = read_export(exported.read_bytes().splitlines(keepends=True))
    records = list(records)
    assert header.events == 6 == len(records)
    assert [r.version for r in records] == [1, 2, 3, 4, 5, 6]
    assert header.head_hash == records[-1].hash.hex()


def test_untouched_export_verifies_offline(exported: Path) -> None:
    done = _cli(None, "verify", "--file", str(exported))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("ok, signature unchecked: 6 events"), done.stdout


def test_one_edited_byte_is_found(exported: Path, tmp_path: Path) -> None:
    data = exported.read_bytes()
    edited = tmp_path / "edited.jsonl"
    edited.write_bytes(data.replace(b'"puck":3', b'"puck":4', 1))
    assert edited.read_bytes() != data
    done = _cli(None, "verify", "--file", str(edited))
    assert done.returncode == 1
    assert "version 4" in done.stdout and "hash expected" in done.stdout


@pytest.mark.parametrize("edit", ["drop_middle", "drop_last", "swap", "header_count"])
def test_structural_edits_are_found(exported: Path, edit: str) -> None:
    lines = exported.read_bytes().splitlines(keepends=True)
    if edit == "drop_middle":
        del lines[3]
    elif edit == "drop_last":
        del lines[-1]
    elif edit == "swap":
        lines[2], lines[3] = lines[3], lines[2]
    else:
        lines[0] = lines[0].replace(b'"events":6', b'"events":5')
    _, problem = verify_export(lines)
    assert problem is not None


def test_garbage_is_a_clear_error_naming_the_line(exported: Path) -> None:
    lines = exported.read_bytes().splitlines(keepends=True)
    lines[2] = b"{not json\n"
    with pytest.raises(ExportError, match="line 3"):
        verify_export(lines)


def test_export_of_an_unknown_stream_says_so(module_database_url: str) -> None:
    done = _cli(module_database_url, "export", "--stream", str(uuid.uuid4()))
    assert done.returncode == 2
    assert "has no events" in done.stderr


def _cli(database_url: str | None, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ}
    if database_url:
        env["DATABASE_URL"] = database_url
    return subprocess.run(
        [TABLESIDE, "audit", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
