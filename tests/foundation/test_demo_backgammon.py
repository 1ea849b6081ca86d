"""The demo's backgammon competition (issue 30): the simulated players of a clocked 5-point
KSI match start the clock, press it after every move and play to the end — through a Crawford
game — with only commands the engine accepts (pure; the demo server's part is in
test_demo.py)."""

from __future__ import annotations

import random

from tableside.demo.backgammon import (
    GUIDE,
    LENGTH,
    PLAYERS,
    Players,
    crawford_seed,
    demo_command,
    think_s,
)
from tableside.disciplines.backgammon import commands as c
from tableside.disciplines.backgammon import decide, fold, initial_state, timing


def test_a_clocked_five_point_match_is_played_out_with_the_clock_pressed() -> None:
    rng = random.Random(0)
    create = c.CreateMatch(match_id="m", player_a=PLAYERS[0], player_b=PLAYERS[1], length=LENGTH,
                           clock=True)  # fmt: skip
    state, presses, crawford, at = fold(decide(initial_state(), create)), 0, False, 0
    for _ in range(20_000):
        if state.over:
            break
        at += 1500
        command = demo_command(state, rng, at)
        state = fold(decide(state, command), state)  # refused → RuleViolation: the test fails
        presses += isinstance(command, c.PressClock)
        crawford |= state.game.crawford
    assert state.over and max(state.score) >= LENGTH
    assert state.timer is not None and presses > 20  # a clock pressed move after move
    assert crawford  # KSI 4.4.4: this seed's match passes through a Crawford game


def test_the_guide_is_ksi_with_clocked_five_point_matches() -> None:
    assert (GUIDE.sport, GUIDE.ruleset) == ("backgammon", "KSI")
    assert GUIDE.settings is not None and GUIDE.settings.clock
    assert GUIDE.settings.lengths == (LENGTH,) == (5,)
    assert all(any(ch in name for ch in "ðþáéíóúýæö") for name in PLAYERS)  # Icelandic names


def test_the_demo_clocks_run_down_some_moves_thought_past_the_delay() -> None:
    """Issue 44: every press used to fall within the 12 s delay (KSI 3.5.5) and the clocks
    never left 10:00. Played at the demo's pace with its thinking, both clocks run down."""
    rng = random.Random(4)
    create = c.CreateMatch(match_id="m", player_a=PLAYERS[0], player_b=PLAYERS[1], length=LENGTH,
                           clock=True)  # fmt: skip
    state, at = fold(decide(initial_state(), create)), 0
    for _ in range(400):
        if state.over:
            break
        at += 1500  # the demo's pace between commands
        command = demo_command(state, rng, at)
        think = think_s(command, rng)
        if think:
            command = demo_command(state, rng, at := at + int(think * 1000))
        state = fold(decide(state, command), state)
    full = timing.initial_ms(LENGTH)
    assert all(left < full - 10_000 for left in state.timer.remaining), state.timer.remaining


def test_every_demo_match_the_final_too_passes_through_a_crawford_game() -> None:
    """Issue 44: the final's Crawford game was left to chance. Each match's players are
    seeded so that it passes through one (KSI 4.4.4), thinking before presses and all."""
    create = c.CreateMatch(match_id="m", player_a=PLAYERS[0], player_b=PLAYERS[1], length=LENGTH,
                           clock=True)  # fmt: skip
    start = fold(decide(initial_state(), create))
    for first in (0, 17, 4242):
        players, state, at, crawford = (
            Players(crawford_seed(start, first), random.Random(1)),
            start,
            0,
            False,
        )
        while not state.over:
            at += 1500
            command = demo_command(state, players.sim, at)
            at += int(think_s(command, players.think) * 1000)
            state = fold(decide(state, command), state)
            crawford |= state.game.crawford
        assert crawford, first
