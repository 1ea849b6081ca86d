"""`tableside simulate`: reproducible by seed, JSON lines that decode back to the events."""

from __future__ import annotations

import argparse
from pathlib import Path

import msgspec
from tableside.disciplines.korona import events as ev
from tableside.disciplines.korona import fold, simulate_cli


def _run(tmp_path: Path, name: str, *extra: str) -> bytes:
    parser = argparse.ArgumentParser()
    simulate_cli.add_arguments(parser)
    out = tmp_path / name
    args = parser.parse_args(["--games", "5", "--seed", "3", "--jsonl", str(out), *extra])
    assert simulate_cli.run(args) == 0
    return out.read_bytes()


def test_same_seed_same_lines(tmp_path: Path) -> None:
    assert _run(tmp_path, "a.jsonl", "--pairs") == _run(tmp_path, "b.jsonl", "--pairs")


def test_lines_fold_to_ended_matches(tmp_path: Path) -> None:
    lines = _run(tmp_path, "c.jsonl", "--ruleset", "NOVUS08", "--match-games", "3").splitlines()
    matches: dict[int, list] = {}
    for line in lines:
        row = msgspec.json.decode(line)
        event = ev.decode(msgspec.json.encode(row["event"]))
        matches.setdefault(row["match"], []).append(event)
    assert len(matches) == 5
    assert all(fold(events).ended for events in matches.values())
