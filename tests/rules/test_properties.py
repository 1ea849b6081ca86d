"""Properties over simulated matches: pucks conserved, games end, the fold is deterministic,
events and state survive a JSON round trip.

TABLESIDE_SIM_EXAMPLES sets the hypothesis examples (default 200); TABLESIDE_SIM_GAMES runs the
bulk check over that many simulated games (e.g. 10000) instead of the default 2000.
"""

from __future__ import annotations

import os
import random

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tableside.disciplines.korona import events as ev
from tableside.disciplines.korona import evolve, fold, initial_state
from tableside.disciplines.korona.simulate import play_match
from tableside.disciplines.korona.state import MatchState, full_set

EXAMPLES = int(os.environ.get("TABLESIDE_SIM_EXAMPLES", "200"))
BULK_GAMES = int(os.environ.get("TABLESIDE_SIM_GAMES", "2000"))
RULESETS = ("EKML", "NOVUS08", "LV")


def assert_conserved(state: MatchState) -> None:
    """Each side's pucks: board + pocketed is the full set; nothing negative."""
    full = full_set(state)
    for p in state.game.pucks:
        assert p.on_board + p.pocketed == full, p
        assert min(p.on_board, p.pocketed, p.debt, p.placed) >= 0, p


def play_and_check(seed: int, ruleset: str, pairs: bool, games: int) -> int:
    """Play one match, checking every step; return the number of games ended or annulled."""
    state, events = initial_state(), []
    for event in play_match(random.Random(seed), ruleset, pairs, games):
        state = evolve(state, event)
        events.append(event)
        if state.game.set_up:
            assert_conserved(state)
    assert state.ended and state.signed
    assert fold(events) == state
    decoded = [ev.decode(ev.encode(e)) for e in events]
    assert decoded == events and fold(decoded) == state
    assert msgspec.json.decode(msgspec.json.encode(state), type=MatchState) == state
    return sum(type(e) in (ev.GameEnded, ev.GameAnnulled) for e in events)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.sampled_from(RULESETS), st.booleans(), st.integers(1, 4))
def test_simulated_matches_keep_the_invariants(
    seed: int, ruleset: str, pairs: bool, games: int
) -> None:
    play_and_check(seed, ruleset, pairs, games)


def test_simulation_is_reproducible_by_seed() -> None:
    first = list(play_match(random.Random(7), "NOVUS08", True, 3))
    again = list(play_match(random.Random(7), "NOVUS08", True, 3))
    assert first == again


def test_bulk_simulated_games() -> None:
    played, seed = 0, 0
    while played < BULK_GAMES:
        played += play_and_check(seed, RULESETS[seed % 3], seed % 2 == 1, 1 + seed % 4)
        seed += 1
    assert played >= BULK_GAMES
