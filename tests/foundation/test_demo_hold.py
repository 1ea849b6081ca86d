"""The demo a newcomer can join (issue 34, point 5): each run is numbered, and a Swiss round's
last board is kept from the simulated tables for a person at table 5 until they call it or the
countdown ends — still there after 5 minutes (the director is pure: its clock is an argument)."""

from __future__ import annotations

from datetime import datetime, timedelta

import tableside.server.disciplines  # noqa: F401  the house's sports, as in the app (0149)
from tableside.competition.rules import commands as cmd
from tableside.competition.rules.decide import decide
from tableside.competition.rules.entrants import Person
from tableside.competition.rules.evolve import evolve
from tableside.competition.rules.state import Competition
from tableside.demo.director import (
    HOLD_SECONDS,
    QUIET_SECONDS,
    held_for_person,
    left_at_table,
    next_command,
    nobody_judging,
    run_guide,
    setup_commands,
)

PAIRED = "2026-11-26T17:00:00+00:00"
SIMULATED = (1, 2, 3, 4)


def at(seconds: int) -> str:
    return (datetime.fromisoformat(PAIRED) + timedelta(seconds=seconds)).isoformat()


def drawn() -> Competition:
    state = Competition()
    people = [(f"e{i:02d}", Person(f"Player {i}", 1980 + i, "M")) for i in range(10)]
    for command in setup_commands(run_guide(2), people, seed=2, at=PAIRED):
        for event in decide(state, command):
            state = evolve(state, event)
    return state


def call_all(state: Competition, when: str) -> tuple[Competition, list[str]]:
    """The director's calls to the simulated tables until it has nothing more to call."""
    called = []
    for _ in range(10):
        held = held_for_person(state, PAIRED, when, HOLD_SECONDS)
        command = next_command(state, SIMULATED, 1, when, held)
        if not isinstance(command, cmd.CallMatch | cmd.CallNextMatches):
            break
        for event in decide(state, command):
            called.append(event.match_id)
            state = evolve(state, event)
    return state, called


def test_each_demo_run_is_numbered():
    assert run_guide(1).name != run_guide(2).name and run_guide(2).name.endswith("#2")


def test_table_5s_match_is_still_callable_after_five_minutes():
    state = drawn()
    last = state.rounds[1].pairings[-1].match_id
    state, called = call_all(state, at(10))
    assert len(called) == 4 and last not in called
    # The simulated tables finish their matches; five minutes on, the last board still waits.
    for match_id in called:
        result = cmd.RecordResult(match_id, _win(), at(290))
        for event in decide(state, result):
            state = evolve(state, event)
    held = held_for_person(state, PAIRED, at(300), HOLD_SECONDS)
    assert held is not None and held.match_id == last
    assert datetime.fromisoformat(held.until) - datetime.fromisoformat(at(300)) > timedelta(0)
    state, called = call_all(state, at(300))
    assert last not in called  # a free simulated table does not take it
    # A person calls it to table 5: its countdown runs on (decision 0190), called.
    for event in decide(state, cmd.CallMatch(last, 5, at(320))):
        state = evolve(state, event)
    held = held_for_person(state, PAIRED, at(330), HOLD_SECONDS)
    assert held is not None and held.called and held.match_id == last
    assert left_at_table(state, PAIRED, at(330), HOLD_SECONDS, 5) is None  # still theirs


def test_once_the_countdown_ends_a_simulated_table_takes_it():
    state = drawn()
    last = state.rounds[1].pairings[-1].match_id
    state, called = call_all(state, at(10))
    for match_id in called:
        for event in decide(state, cmd.RecordResult(match_id, _win(), at(200))):
            state = evolve(state, event)
    assert held_for_person(state, PAIRED, at(HOLD_SECONDS + 1), HOLD_SECONDS) is None
    state, called = call_all(state, at(HOLD_SECONDS + 1))
    assert called == [last] and state.calls[last] in SIMULATED


def test_a_kept_board_called_and_left_is_taken_at_its_table_when_the_countdown_ends():
    """Issue 54: the visitor pressed "Call next" and never judged; the board waited on table 5
    for good while tables 1-4 idled. At the countdown's end it is left at table 5 for a
    simulated judge, not before, and never one called to another table (decision 0190)."""
    state = drawn()
    last = state.rounds[1].pairings[-1].match_id
    for event in decide(state, cmd.CallMatch(last, 5, at(30))):
        state = evolve(state, event)
    assert left_at_table(state, PAIRED, at(HOLD_SECONDS - 1), HOLD_SECONDS, 5) is None
    assert left_at_table(state, PAIRED, at(HOLD_SECONDS), HOLD_SECONDS, 5) == last
    assert left_at_table(state, PAIRED, at(HOLD_SECONDS), HOLD_SECONDS, 1) is None
    assert held_for_person(state, PAIRED, at(HOLD_SECONDS), HOLD_SECONDS) is None
    for event in decide(state, cmd.RecordResult(last, _win(), at(HOLD_SECONDS + 90))):
        state = evolve(state, event)
    assert left_at_table(state, PAIRED, at(HOLD_SECONDS + 91), HOLD_SECONDS, 5) is None


def test_a_visitor_still_judging_is_never_raced():
    """Taken over only when nobody has judged the board for QUIET_SECONDS (or at all)."""
    assert nobody_judging(None, at(600))
    assert not nobody_judging(at(600 - QUIET_SECONDS + 1), at(600))
    assert nobody_judging(at(600 - QUIET_SECONDS), at(600))


def _win():
    from tableside.competition.rules.results import MatchResult

    return MatchResult(1, 0, a_pucks_diff=3)


def test_call_next_sends_the_kept_match_to_its_table_or_nowhere():
    """Issue 45: "Call next" took the lowest free table, so the kept match went to table 1
    and a simulated judge signed it. Kept for table 5, it goes to 5 or waits."""
    state = drawn()
    last = state.rounds[1].pairings[-1].match_id
    kept = ((last, 5),)
    without_5 = decide(state, cmd.CallNextMatches((1, 2, 3, 4), at(5), kept=kept))
    assert last not in {e.match_id for e in without_5} and len(without_5) == 4
    with_5 = decide(state, cmd.CallNextMatches((1, 2, 3, 5), at(5), kept=kept))
    tables = {e.match_id: e.table for e in with_5}
    assert tables[last] == 5 and sorted(tables.values()) == [1, 2, 3, 5]
