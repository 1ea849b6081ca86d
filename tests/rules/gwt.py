"""Given / when / then for the rules engine: past commands, one command, expected events."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from tableside.disciplines.korona import RuleViolation, decide, fold, initial_state
from tableside.disciplines.korona.commands import (
    AssignOpeningShot,
    Command,
    CreateMatch,
    RecordStroke,
    StrokeFacts,
    ZoneSurvey,
)
from tableside.disciplines.korona.state import MatchState

SINGLES = (("ann",), ("bob",))
PAIRS = (("ann", "amy"), ("bob", "ben"))  # seats clockwise: ann, bob, amy, ben


def S(player: str, zone: ZoneSurvey | None = None, **facts: Any) -> RecordStroke:
    """A stroke by `player` with these facts (default: correct, direct, nothing pocketed)."""
    return RecordStroke(player=player, facts=StrokeFacts(**facts), zone=zone or ZoneSurvey())


def pot(player: str, n: int = 1, **facts: Any) -> RecordStroke:
    """A correct stroke pocketing `n` own pucks."""
    return S(player, own_pocketed=n, **facts)


@dataclass
class Case:
    id: str
    given: list[Command]
    when: Command
    then: list[tuple[type, dict[str, Any]]] = field(default_factory=list)
    error: str = ""  # a RuleViolation whose rule contains this text
    absent: tuple[type, ...] = ()
    ruleset: str = "EKML"
    fmt: str = "singles"
    games: int = 1
    opener: str = "A"

    def param(self) -> Any:
        return pytest.param(self, id=self.id)


def setup(
    ruleset: str = "EKML", fmt: str = "singles", games: int = 1, opener: str = "A"
) -> MatchState:
    """A created match with the opening shot assigned by lot to `opener`'s side."""
    a, b = PAIRS if fmt == "pairs" else SINGLES
    state = initial_state()
    for cmd in (
        CreateMatch(match_id="m", side_a=a, side_b=b, ruleset=ruleset, fmt=fmt, games=games),
        AssignOpeningShot(method="lot", lot_winner=opener),
    ):
        state = fold(decide(state, cmd), state)
    return state


def given(state: MatchState, commands: list[Command]) -> MatchState:
    """Apply past commands through decide + fold."""
    for cmd in commands:
        state = fold(decide(state, cmd), state)
    return state


def _matches(event: Any, kind: type, attrs: dict[str, Any]) -> bool:
    if type(event) is not kind:
        return False
    for name, want in attrs.items():
        got = getattr(event, name)
        if name == "rule" and isinstance(want, str):
            if want not in got:
                return False
        elif got != want:
            return False
    return True


def assert_subsequence(events: tuple, expected: list[tuple[type, dict[str, Any]]]) -> None:
    """Each expected (type, attrs) appears, in order; `rule` matches by substring."""
    i = 0
    for kind, attrs in expected:
        while i < len(events) and not _matches(events[i], kind, attrs):
            i += 1
        assert i < len(events), f"missing {kind.__name__}{attrs} in\n" + "\n".join(
            map(repr, events)
        )
        i += 1


def check(case: Case) -> tuple:
    """Run one case: given, when, then (or the expected RuleViolation, with state unchanged)."""
    state = given(setup(case.ruleset, case.fmt, case.games, case.opener), case.given)
    if case.error:
        before = state
        with pytest.raises(RuleViolation) as info:
            decide(state, case.when)
        assert case.error in info.value.rule, info.value
        assert state == before
        return ()
    events = decide(state, case.when)
    assert_subsequence(events, case.then)
    for kind in case.absent:
        assert not any(type(e) is kind for e in events), f"unexpected {kind.__name__}: {events}"
    return events
