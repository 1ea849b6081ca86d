"""Dice and rolls (KSI 4.1) and the wrong starting position (KSI 4.2.4)."""

from __future__ import annotations

from tableside.disciplines.backgammon import commands as c
from tableside.disciplines.backgammon import events as ev
from tableside.disciplines.backgammon import fold
from tableside.disciplines.backgammon import state as st
from tableside.disciplines.backgammon.board import STANDARD

from .gwt import given, opened, refused, side, then

AFTER_OPENING = [c.Play(side="A", moves=((8, 5), (6, 5)))]  # B to roll


def test_ksi_4_1_1_dice_show_one_to_six() -> None:
    s = given(opened(3, 1), AFTER_OPENING)
    refused(s, c.Roll(side="B", dice=(7, 1)), "KSI 4.1.1")
    refused(s, c.Roll(side="B", dice=(0, 3)), "KSI 4.1.1")


def test_ksi_4_1_4_1_invalid_roll_is_rolled_again() -> None:
    s = given(opened(3, 1), AFTER_OPENING)
    events = then(s, c.Roll(side="B", invalid="cocked"), (ev.InvalidRoll, {"rule": "KSI 4.1.4.1"}))
    after = fold(events, s)
    assert after.game.phase == st.ROLL_ONLY and after.game.dice == (0, 0)
    then(after, c.Roll(side="B", dice=(6, 4)), (ev.DiceRolled, {"dice": (6, 4)}))


def test_ksi_4_1_5_1_roll_before_the_opponent_finished_stands_if_not_rejected() -> None:
    s = opened(3, 1)  # A is moving
    events = then(
        s, c.Roll(side="B", dice=(6, 6)), (ev.DiceRolled, {"early": True, "rule": "KSI 4.1.5.1"})
    )
    s = given(fold(events, s), AFTER_OPENING)
    assert (s.game.turn, s.game.dice, s.game.phase) == ("B", (6, 6), st.MOVE)
    then(s, c.Play(side="B", moves=((24, 18),) * 2 + ((13, 7),) * 2), (ev.PlayRecorded, {}))


def test_ksi_4_1_5_1_early_roll_rerolled_only_if_the_opponent_asks() -> None:
    s = given(opened(3, 1), [c.Roll(side="B", dice=(6, 6)), *AFTER_OPENING])
    events = then(s, c.RequireReroll(side="A"), (ev.RerollRequired, {"side": "B"}))
    after = fold(events, s)
    assert after.game.phase == st.ROLL_ONLY
    refused(after, c.Double(side="B"), "KSI 4.4.2")
    refused(
        given(s, [c.Play(side="B", moves=((24, 18),) * 2 + ((13, 7),) * 2)]),
        c.RequireReroll(side="A"),
        "KSI 4.1.5.1",
    )


def test_ksi_4_1_5_1_a_roll_in_time_cannot_be_rejected() -> None:
    s = given(opened(3, 1), [*AFTER_OPENING, c.Roll(side="B", dice=(6, 5))])
    refused(s, c.RequireReroll(side="A"), "KSI 4.1.5.1")


WRONG = (side({24: 2, 13: 5, 8: 3, 6: 4}), STANDARD)  # A set up with 14 checkers


def test_ksi_4_2_4_wrong_setup_found_before_the_starters_second_roll_is_corrected() -> None:
    state = given(_wrong_game(), [c.RollOpening(die_a=3, die_b=1)])
    events = then(state, c.ReportWrongSetup(), (ev.SetupCorrected, {"rule": "KSI 4.2.4"}))
    assert fold(events, state).game.position == (STANDARD, STANDARD)


def test_ksi_4_2_4_wrong_setup_stands_after_the_starters_second_roll() -> None:
    state = given(
        _wrong_game(),
        [
            c.RollOpening(die_a=3, die_b=1),
            c.Play(side="A", moves=((8, 5), (6, 5))),
            c.Roll(side="B", dice=(2, 1)),
            c.Play(side="B", moves=((13, 11), (6, 5))),
            c.Roll(side="A", dice=(4, 2)),
        ],
    )
    then(state, c.ReportWrongSetup(), (ev.SetupStands, {"rule": "KSI 4.2.4"}))


def test_ksi_4_2_4_fewer_than_15_checkers_can_still_lose_a_gammon() -> None:
    from .gwt import at

    s = at(side({1: 1, 0: 14}), side({12: 14}), (2, 1))  # B has only 14
    then(s, c.Play(side="A", moves=((1, 0),)), (ev.GameEnded, {"kind": "gammon", "points": 2}))


def _wrong_game() -> st.MatchState:
    from .gwt import match

    return given(match(), [c.StartGame(position=WRONG)])
