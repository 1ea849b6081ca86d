"""Given / when / then for the backgammon engine: past commands, one command, expected events."""

from __future__ import annotations

from typing import Any

import pytest
from msgspec.structs import replace
from tableside.disciplines.backgammon import RuleViolation, decide, fold, initial_state
from tableside.disciplines.backgammon import commands as c
from tableside.disciplines.backgammon import state as st
from tableside.disciplines.backgammon.board import STANDARD
from tableside.disciplines.backgammon.state import MatchState


def side(points: dict[int, int]) -> tuple[int, ...]:
    """26 counts from {point: checkers} (25 the bar, 0 off)."""
    s = [0] * 26
    for p, n in points.items():
        s[p] = n
    return tuple(s)


def match(length: int = 7, clock: bool = False, **kw: Any) -> MatchState:
    cmd = c.CreateMatch(
        match_id="m", player_a="ann", player_b="bob", length=length, clock=clock, **kw
    )
    return fold(decide(initial_state(), cmd))


def given(state: MatchState, commands: list[c.Command]) -> MatchState:
    for cmd in commands:
        state = fold(decide(state, cmd), state)
    return state


def opened(die_a: int = 3, die_b: int = 1, length: int = 7, **kw: Any) -> MatchState:
    """A game started from the standard set-up; the opening roll made."""
    return given(match(length, **kw), [c.StartGame(), c.RollOpening(die_a=die_a, die_b=die_b)])


def at(
    a: dict[int, int] | tuple,
    b: dict[int, int] | tuple,
    dice: tuple[int, int] = (0, 0),
    turn: str = "A",
    length: int = 7,
    clock: bool = False,
    **game: Any,
) -> MatchState:
    """A game in progress in this position: `turn` to play `dice` (or to roll when none)."""
    state = given(match(length, clock=clock), [c.StartGame()])
    sa = a if isinstance(a, tuple) else side(a)
    sb = b if isinstance(b, tuple) else side(b)
    phase = st.MOVE if dice != (0, 0) else st.ROLL
    fields = {"position": (sa, sb), "turn": turn, "dice": dice, "phase": phase, "starter": turn}
    fields["starter_rolls"] = 2
    fields.update(game)
    return replace(state, game=replace(state.game, **fields))


def events_of(state: MatchState, cmd: c.Command) -> tuple:
    return decide(state, cmd)


def then(state: MatchState, cmd: c.Command, *expected: tuple[type, dict[str, Any]]) -> tuple:
    """Each expected (type, attrs) appears in order; `rule` matches by substring."""
    events = decide(state, cmd)
    i = 0
    for kind, attrs in expected:
        while i < len(events) and not _matches(events[i], kind, attrs):
            i += 1
        assert i < len(events), f"missing {kind.__name__}{attrs} in\n" + "\n".join(
            map(repr, events)
        )
        i += 1
    return events


def refused(state: MatchState, cmd: c.Command, rule: str) -> RuleViolation:
    with pytest.raises(RuleViolation) as info:
        decide(state, cmd)
    assert info.value.rule == rule, info.value
    return info.value


def _matches(event: Any, kind: type, attrs: dict[str, Any]) -> bool:
    if type(event) is not kind:
        return False
    for name, want in attrs.items():
        got = getattr(event, name)
        if name == "rule" and want not in got:
            return False
        if name != "rule" and got != want:
            return False
    return True


START = (STANDARD, STANDARD)
