"""Whole games scripted stroke by stroke: the rules working together."""

from __future__ import annotations

from tableside.disciplines.korona import decide, fold
from tableside.disciplines.korona import events as ev
from tableside.disciplines.korona.commands import GiveRemark, ReportIncident

from .gwt import S, given, pot, setup


def _events(state, commands):
    out = []
    for cmd in commands:
        batch = decide(state, cmd)
        out.extend(batch)
        state = fold(batch, state)
    return state, out


def test_ekml_singles_match_with_debts_penalties_and_a_remark() -> None:
    state = setup(games=2)
    script = [
        S("ann", first_contact="opponent"),  # §24(1)2 with all 8 on board: a debt (§24(4))
        pot("bob", 3),
        S("bob", opponent_pocketed=1),  # bob pockets ann's puck: debt goes down (§24(5))
        pot("ann", 7),
        S("ann"),  # ann has 1 left
        GiveRemark(player="bob", reason="object_on_cushion"),
        pot("bob", 5, striker="pocket"),  # penalty placed at once: bob 1 + 1 back
        pot("ann"),  # ann clears: game 1 to A (§27(3))
    ]
    state, events = _events(state, script)
    kinds = [type(e) for e in events]
    assert kinds.count(ev.DebtRecorded) == 1
    assert any(type(e) is ev.PenaltyPuckPlaced and e.rule == "EKML §24(5)" for e in events)
    assert state.won == (1, 0) and state.remarks == (0, 1)
    assert state.game.game_no == 2 and state.game.opener == "bob"


def test_ekml_pairs_game_rotation_and_penalty_to_the_shooter() -> None:
    state = given(setup(fmt="pairs", games=2), [pot("ann", 2), S("ann")])
    assert state.game.turn == "bob"
    state, events = _events(
        state, [ReportIncident(code="moved_puck_in_opponent_turn", player="ann")]
    )
    penalty = next(e for e in events if type(e) is ev.PenaltyAwarded)
    assert penalty.player == "amy"  # A's next shooter takes it and misses the turn (§28(5))
    state, events = _events(state, [S("bob")])
    assert [type(e) for e in events][-2:] == [ev.TurnSkipped, ev.TurnPassed]
    assert state.game.turn == "ben"


def test_novus08_game_to_the_end() -> None:
    state, events = _events(setup("NOVUS08"), [S("ann"), pot("bob", 4), pot("bob", 4)])
    assert state.ended and state.winner == "B"
    assert [e.rule for e in events if type(e) is ev.GameEnded] == ["NOVUS08 20.3"]
