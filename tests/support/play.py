"""Play simulated matches through the API, folding the responses the way the server does."""

from __future__ import annotations

import random

import msgspec
from tableside.disciplines.korona import commands as rc
from tableside.disciplines.korona import simulate
from tableside.plugins.korona.folding import MatchView, Record, advance
from tableside.server.registry import build_registry

from support.harness import Api

REGISTRY = build_registry()


def fold_response(view: MatchView | None, match_id, body: dict) -> MatchView:
    """Advance a view by the events a command response reports."""
    for e in body["events"]:
        event = REGISTRY.decode(e["type"], msgspec.json.encode(e["event"]))
        view = advance(view, Record(match_id, e["version"], e["position"], e["type"], event, None))
    return view


def create(head: Api, table: int, rng: random.Random, pairs=False, games=1, **extra):
    """Create a simulated match on a table; returns (match_id, view)."""
    cm = simulate.new_match(rng, pairs=pairs, games=games)
    r = head.create(table, cm.side_a, cm.side_b, format=cm.fmt, games=games, **extra)
    assert r.status_code == 201, r.text
    body = r.json()
    return body["match_id"], fold_response(None, body["match_id"], body)


def play(
    head: Api, judge: Api, match_id, view: MatchView, rng: random.Random, limit: int = 5000
) -> MatchView:
    """Post simulated commands until the simulator has nothing more (protocol signed)."""
    for _ in range(limit):
        cmd = simulate.next_command(view.state, rng)
        if cmd is None:
            return view
        sender = head if isinstance(cmd, rc.CorrectDecision) else judge
        r = sender.command(match_id, view.version, msgspec.to_builtins(cmd))
        assert r.status_code == 201, r.text
        view = fold_response(view, match_id, r.json())
    raise AssertionError("match did not end")
