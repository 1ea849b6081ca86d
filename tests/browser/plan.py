"""Commands planned ahead for a real match: the engine tells each one's expected_version.

A browser test queues several commands while offline, so it needs their versions before any
is sent. The engine is pure: folding its own decisions locally gives exactly the versions
the server will assign.
"""

from __future__ import annotations

import random

import msgspec
from tableside.disciplines.korona import commands as rc
from tableside.disciplines.korona import simulate
from tableside.disciplines.korona.engine import decide
from tableside.plugins.korona.folding import MatchView, Record, advance


def plan(view: MatchView, rng: random.Random, count: int) -> tuple[list[dict], MatchView]:
    """Up to `count` judge commands (no corrections) as API bodies, and the view after them."""
    bodies: list[dict] = []
    while len(bodies) < count:
        command = simulate.next_command(view.state, rng)
        if command is None or isinstance(command, rc.CorrectDecision):
            break
        bodies.append({"expected_version": view.version, "command": msgspec.to_builtins(command)})
        for event in decide(view.state, command):
            view = advance(view, Record(view.match_id, view.version + 1, 0, "", event, None))
    return bodies, view
