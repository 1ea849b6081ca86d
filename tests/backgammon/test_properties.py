"""Random legal matches through decide/evolve keep the invariants (hypothesis, bounded)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs
from tableside.disciplines.backgammon import board
from tableside.disciplines.backgammon import events as ev
from tableside.disciplines.backgammon import state as st
from tableside.disciplines.backgammon.evolve import evolve
from tableside.disciplines.backgammon.simulate import play_match

pytestmark = pytest.mark.long  # started first under `make test` (tests/conftest.py)

TOTALS: dict[str, int] = {"games": 0, "matches": 0, "crawford": 0}


def _check_play(before: st.MatchState, e: ev.PlayRecorded) -> None:
    """The mover's pips drop by the distance moved, the opponent's rise by what was hit."""
    me, opp = st.mine(before, e.side)
    dist = sum(frm - to for frm, to in e.moves)
    hit = 0
    m, o = me, opp
    for frm, to in e.moves:
        m, o, was_hit = board.move(m, o, frm, to)
        hit += to if was_hit else 0
    assert board.pips(m) == board.pips(me) - dist
    assert board.pips(o) == board.pips(opp) + hit
    assert st.as_sides(e.side, m, o) == e.position
    if e.legal and e.dice[0] != e.dice[1]:
        assert len(e.moves) <= 2


def _check_state(s: st.MatchState) -> None:
    a, b = s.game.position
    assert sum(a) == 15 and sum(b) == 15
    assert all(n >= 0 for n in (*a, *b))
    assert not any(a[p] and b[25 - p] for p in range(1, 25))
    cube = s.game.cube
    assert cube & (cube - 1) == 0 and (s.game.owner == "") == (cube == 1)
    if s.game.crawford:
        assert cube == 1


def _check_match(events: list[ev.Event], length: int) -> None:
    starts = [e for e in events if type(e) is ev.GameStarted]
    crawford = [g for g in starts if g.crawford]
    reached = [g for g in starts if length > 1 and length - 1 in g.score]
    assert len(crawford) == (1 if reached else 0)
    if reached:
        assert crawford[0] is reached[0]  # the first game after reaching it
    ends = [e for e in events if type(e) is ev.GameEnded]
    won = [sum(g.points for g in ends if g.winner == w) for w in "AB"]
    final = [e for e in events if type(e) is ev.MatchEnded]
    assert len(final) == 1 and tuple(won) == final[0].score and max(won) >= length
    assert sorted(won)[0] < length
    TOTALS["games"] += len(ends)
    TOTALS["matches"] += 1
    TOTALS["crawford"] += len(crawford)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=hs.integers(0, 2**32), length=hs.integers(1, 21))
def test_random_matches_keep_the_invariants(seed: int, length: int) -> None:
    state = st.initial_state()
    events = []
    in_crawford_game = False
    for e in play_match(random.Random(seed), length):
        if type(e) is ev.PlayRecorded:
            _check_play(state, e)
        if type(e) is ev.GameStarted:
            in_crawford_game = e.crawford
        if type(e) in (ev.DoubleOffered, ev.DoubleTaken):
            assert not in_crawford_game
        state = evolve(state, e)
        if state.game.phase != st.OVER:
            _check_state(state)
        events.append(e)
    _check_match(events, length)


def test_the_property_run_covered_thousands_of_games() -> None:
    if TOTALS["matches"] < 300:  # run alone: play the same number here
        test_random_matches_keep_the_invariants()
    assert TOTALS["games"] >= 1000, TOTALS
    assert TOTALS["crawford"] >= 20, TOTALS
