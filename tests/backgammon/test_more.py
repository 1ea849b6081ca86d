"""Left of the bar (KSI 4.1.4.1), dice exchange (KSI 4.1.3), pause overrun (KSI 2.2.4), slow-play
penalty points (KSI 2.3.1.2), a replaced clock (KSI 3.7.2)."""

from __future__ import annotations

from tableside.disciplines.backgammon import commands as c
from tableside.disciplines.backgammon import events as ev
from tableside.disciplines.backgammon import fold
from tableside.disciplines.backgammon import state as st

from .gwt import given, match, opened, refused, then

B_TO_ROLL = [c.Play(side="A", moves=((8, 5), (6, 5)))]


def test_ksi_4_1_4_1_left_of_the_bar_only_with_permission_until_announced() -> None:
    s = given(opened(3, 1), B_TO_ROLL)
    then(
        s,
        c.Roll(side="B", dice=(6, 5), left_of_bar=True),
        (ev.InvalidRoll, {"reason": "left of the bar without permission", "rule": "KSI 4.1.4.1"}),
    )
    s = fold(then(s, c.PermitLeftOfBar(side="B"), (ev.LeftOfBarPermitted, {})), s)
    then(s, c.Roll(side="B", dice=(6, 5), left_of_bar=True), (ev.DiceRolled, {}))
    s = given(s, [c.EndLeftOfBar(side="B")])
    then(s, c.Roll(side="B", dice=(6, 5), left_of_bar=True), (ev.InvalidRoll, {}))
    refused(s, c.EndLeftOfBar(side="B"), "KSI 4.1.4.1")


def test_ksi_4_1_4_1_permission_ends_with_the_game() -> None:
    s = given(opened(3, 1), [c.PermitLeftOfBar(side="B"), *B_TO_ROLL])
    s = given(s, [c.Double(side="B"), c.Drop(side="A"), c.StartGame()])
    assert s.game.left_of_bar == ()


def test_ksi_4_1_3_dice_exchanged_at_the_start_of_a_game() -> None:
    s = given(match(), [c.StartGame()])
    then(s, c.ExchangeDice(side="A"), (ev.DiceExchanged, {"rule": "KSI 4.1.3"}))
    refused(opened(), c.ExchangeDice(side="A"), "KSI 4.1.3")


def test_ksi_2_2_4_pause_overrun_earns_penalty_points_too() -> None:
    s = match(7)
    then(
        s,
        c.RecordLateness(side="A", minutes=6, reason="pause"),
        (ev.PenaltyPoints, {"points": 1, "reason": "pause", "rule": "KSI 2.2.4"}),
    )


def test_ksi_2_3_1_2_slow_play_penalty_points() -> None:
    s = opened()
    events = then(
        s,
        c.PenaliseSlowPlay(side="B", points=2),
        (ev.PenaltyPoints, {"side": "B", "points": 2, "score": (2, 0), "rule": "KSI 2.3.1.2"}),
    )
    assert fold(events, s).score == (2, 0)
    refused(s, c.PenaliseSlowPlay(side="B", points=0), "KSI 2.3.1.2")
    end = then(
        given(opened(length=1), []),
        c.PenaliseSlowPlay(side="B", points=1),
        (ev.MatchEnded, {"winner": "A"}),
    )
    assert fold(end, opened(length=1)).over


def test_ksi_3_7_2_a_replaced_clock_is_set_by_the_td() -> None:
    s = given(opened(3, 1, clock=True), [c.StartClock(at_ms=0)])
    events = then(
        s,
        c.SetClock(at_ms=1_000, remaining=(600_000, 540_000)),
        (ev.ClockSet, {"rule": "KSI 3.7.2"}),
    )
    assert fold(events, s).timer.remaining == (600_000, 540_000)
    refused(s, c.SetClock(at_ms=1, remaining=(0, 5)), "KSI 3.7.2")
    refused(opened(), c.SetClock(at_ms=1, remaining=(5, 5)), "KSI 3.5.1")
    assert st.OVER == "over"


def test_the_board_document_after_an_event() -> None:
    from tableside.disciplines.backgammon.view import board_doc

    doc = board_doc(opened(3, 1))
    assert doc["pips"] == {"A": 167, "B": 167} and doc["dice"] == [3, 1]
    assert doc["cube"] == {"value": 1, "owner": "", "dead": False} and doc["clock"] is None
    assert doc["turn"] == "A" and doc["position"]["A"][6] == 5


def test_ksi_3_5_1_clock_commands_need_a_match_played_with_a_clock() -> None:
    refused(opened(), c.PressClock(side="A", at_ms=1), "KSI 3.5.1")
    clocked = given(opened(clock=True), [c.StartClock(at_ms=0)])
    refused(clocked, c.StartClock(at_ms=1), "KSI 3.5.1")
