"""Issue 45: the demo's simulated tables keep playing while a board is kept for a visitor —
their strokes spread over the countdown (demo/pacing.py), at their own pace otherwise."""

from __future__ import annotations

import random

import msgspec
import pytest
from tableside.demo.pacing import STRETCH, commands_left, seconds_left, stroke_wait
from tableside.disciplines.korona import simulate
from tableside.disciplines.korona.engine import decide
from tableside.disciplines.korona.fold import apply
from tableside.disciplines.korona.state import initial_state


def _match(seed: int) -> list:
    """Every state of one simulated one-game singles match, before each command."""
    rng = random.Random(seed)
    state, command, states = initial_state(), simulate.new_match(rng), []
    while command is not None:
        for event in decide(state, command):
            state = apply(state, event, state.version + 1)
        states.append(state)
        command = simulate.next_command(state, rng)
    return states


def test_without_a_kept_board_a_table_plays_at_its_pace() -> None:
    state = _match(1)[3]
    assert stroke_wait(0.7, 2.0, 0.0, state) == 0.7


def test_a_kept_board_spreads_a_tables_match_over_its_countdown() -> None:
    """Played at the waits the pacing gives, 600 s kept: the simulated matches last most of
    the countdown (at the bare pace, 20-60 s), none a stroke slower than STRETCH paces."""
    lasted = []
    for seed in range(40):
        states, clock = _match(seed), 0.0
        for state in states[:-1]:
            wait = stroke_wait(1.3, 2.0, max(0.0, 600 - clock), state)
            assert 1.3 <= wait <= STRETCH * 2.0
            clock += wait
        lasted.append(clock)
    lasted.sort()
    assert lasted[len(lasted) // 2] >= 300, lasted  # the median match: half the countdown


def test_the_commands_left_fall_as_the_pucks_go() -> None:
    states = _match(7)
    guesses = [commands_left(s) for s in states[1:]]
    assert guesses[0] >= 20 and guesses[-1] == 1.0
    ended = msgspec.structs.replace(states[-1], ended=True)
    assert commands_left(ended) == 1.0


@pytest.mark.parametrize(
    ("until", "at", "left"),
    [
        ("2026-11-28T12:10:00+00:00", "2026-11-28T12:00:00Z", 600.0),
        ("2026-11-28T12:10:00+00:00", "2026-11-28T12:11:00Z", 0.0),
        ("", "2026-11-28T12:00:00Z", 0.0),
    ],
)
def test_seconds_left_of_a_countdown(until: str, at: str, left: float) -> None:
    assert seconds_left(until, at) == left
