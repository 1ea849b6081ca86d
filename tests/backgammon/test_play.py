"""Legal plays (rules of play, KSI 1.2.1), bar first (KSI 4.2.1), illegal plays (KSI 4.2.3)."""

from __future__ import annotations

from tableside.disciplines.backgammon import board, fold
from tableside.disciplines.backgammon import commands as c
from tableside.disciplines.backgammon import events as ev
from tableside.disciplines.backgammon import state as st
from tableside.disciplines.backgammon.board import STANDARD, legal_plays

from .gwt import at, given, opened, refused, side, then


def test_ksi_1_2_1_opening_roll_higher_die_starts_with_both_numbers() -> None:
    s = given(opened(1, 3), [])
    assert (s.game.turn, s.game.dice, s.game.phase) == ("B", (1, 3), st.MOVE)


def test_ksi_1_2_1_opening_tie_rolls_again() -> None:
    s = given(opened(4, 4), [])
    assert s.game.phase == st.OPENING


def test_ksi_1_2_1_opening_counts_sixteen_plays_for_31() -> None:
    assert len(legal_plays(STANDARD, STANDARD, (3, 1))) == 16


def test_ksi_1_2_1_legal_play_is_recorded_and_the_turn_passes() -> None:
    s = opened(3, 1)
    events = then(s, c.Play(side="A", moves=((8, 5), (6, 5))), (ev.PlayRecorded, {"legal": True}))
    after = fold(events, s)
    assert after.game.turn == "B" and after.game.phase == st.ROLL
    assert after.game.position[0][5] == 2


def test_ksi_1_2_1_both_dice_must_be_played_when_possible() -> None:
    s = opened(3, 1)
    then(s, c.Play(side="A", moves=((8, 5),)), (ev.PlayRecorded, {"legal": False}))


def test_ksi_1_2_1_only_one_die_playable_the_larger_must_be_played() -> None:
    # A's only checker on 20; B holds A's 9, so after 20/14 or 20/15 the other die is stuck
    a = side({20: 1, 0: 14})
    b = side({16: 2, 24: 13})
    assert list(legal_plays(a, b, (6, 5)).values()) == [((20, 14),)]
    s = at(a, b, (6, 5))
    then(s, c.Play(side="A", moves=((20, 15),)), (ev.PlayRecorded, {"legal": False}))


def test_ksi_1_2_1_doubles_are_four_moves() -> None:
    plays = legal_plays(STANDARD, STANDARD, (6, 6))
    assert all(len(p) == 4 for p in plays.values())
    s = at(STANDARD, STANDARD, (6, 6))
    moves = ((24, 18), (24, 18), (13, 7), (13, 7))
    then(s, c.Play(side="A", moves=moves), (ev.PlayRecorded, {"legal": True}))
    then(s, c.Play(side="A", moves=moves[:3]), (ev.PlayRecorded, {"legal": False}))


def test_ksi_1_2_1_bearing_off_with_a_higher_die_from_the_highest_point() -> None:
    a = side({3: 1, 2: 1, 0: 13})
    s = at(a, side({24: 15}), (6, 5))
    then(s, c.Play(side="A", moves=((3, 0), (2, 0))), (ev.PlayRecorded, {"legal": True}))
    a2 = side({6: 1, 2: 1, 0: 13})
    plays = legal_plays(a2, side({24: 15}), (5, 1))
    assert all((2, 0) not in p[:1] or (6, 1) in p for p in plays.values())  # no 2/off with the 5
    s2 = at(a2, side({24: 15}), (5, 1))
    then(s2, c.Play(side="A", moves=((2, 0), (6, 5))), (ev.PlayRecorded, {"legal": False}))


def test_ksi_1_2_1_no_bearing_off_with_a_checker_outside_home() -> None:
    a = side({8: 1, 2: 1, 0: 13})
    s = at(a, side({12: 15}), (2, 1))
    then(s, c.Play(side="A", moves=((2, 0), (8, 7))), (ev.PlayRecorded, {"legal": False}))
    # the same position reached in another order is the same play
    then(s, c.Play(side="A", moves=((2, 1), (8, 6))), (ev.PlayRecorded, {"legal": True}))


def test_ksi_1_2_1_last_checker_off_wins_single_gammon_or_backgammon() -> None:
    a = side({1: 1, 0: 14})
    cases = {
        "single": side({24: 14, 0: 1}),
        "gammon": side({12: 15}),
        "backgammon": side({20: 1, 12: 14}),
    }
    for kind, b in cases.items():
        s = at(a, b, (2, 1))
        points = {"single": 1, "gammon": 2, "backgammon": 3}[kind]
        then(
            s,
            c.Play(side="A", moves=((1, 0),)),
            (ev.GameEnded, {"winner": "A", "kind": kind, "points": points}),
        )


def test_ksi_1_2_1_no_legal_move_the_empty_play_is_legal() -> None:
    a = side({25: 1, 6: 14})
    b = side({n: 2 for n in range(1, 7)} | {24: 3})  # B's home board closed
    s = at(a, b, (6, 5))
    assert list(legal_plays(a, b, (6, 5)).values()) == [()]
    then(s, c.Play(side="A", moves=()), (ev.PlayRecorded, {"legal": True}))


def test_ksi_1_2_1_a_play_that_cannot_be_made_is_refused() -> None:
    s = opened(3, 1)
    refused(s, c.Play(side="A", moves=((9, 6),)), "KSI 1.2.1")
    refused(s, c.Play(side="A", moves=((13, 12),)), "KSI 1.2.1")  # B holds A's 12
    refused(s, c.Play(side="B", moves=((8, 5), (6, 5))), "KSI 1.2.1")


def test_ksi_4_2_1_checkers_on_the_bar_enter_first() -> None:
    a = side({25: 1, 13: 14})
    b = side({24: 15})
    s = at(a, b, (3, 1))
    then(
        s,
        c.Play(side="A", moves=((25, 22), (13, 12))),
        (ev.PlayRecorded, {"rule": "KSI 4.2.1", "legal": True}),
    )
    then(s, c.Play(side="A", moves=((13, 10), (13, 12))), (ev.PlayRecorded, {"legal": False}))


def test_ksi_4_2_1_hit_checker_goes_to_the_bar() -> None:
    a = side({13: 15})
    b = side({25 - 10: 1, 24: 14})  # a lone B checker on A's 10
    s = at(a, b, (3, 1))
    after = fold(then(s, c.Play(side="A", moves=((13, 10), (13, 12))), (ev.PlayRecorded, {})), s)
    assert after.game.position[1][board.BAR] == 1


def _illegal() -> st.MatchState:
    s = opened(3, 1)
    return given(s, [c.Play(side="A", moves=((8, 2),))])


def test_ksi_4_2_3_1_illegal_play_is_recorded_and_the_opponent_chooses() -> None:
    s = _illegal()
    assert s.game.illegal and s.game.turn == "B"
    refused(s, c.AcceptIllegalPlay(side="A"), "KSI 4.2.3.1")


def test_ksi_4_2_3_2_accepted_by_rolling() -> None:
    s = _illegal()
    events = then(
        s,
        c.Roll(side="B", dice=(6, 5)),
        (ev.IllegalPlayAccepted, {"side": "B", "rule": "KSI 4.2.3.2"}),
        (ev.DiceRolled, {}),
    )
    assert fold(events, s).game.position[0][2] == 1


def test_ksi_4_2_3_2_accepted_by_doubling() -> None:
    s = _illegal()
    then(s, c.Double(side="B"), (ev.IllegalPlayAccepted, {}), (ev.DoubleOffered, {}))


def test_ksi_4_2_3_2_correction_restores_position_and_dice() -> None:
    s = _illegal()
    events = then(
        s, c.CorrectIllegalPlay(side="B"), (ev.IllegalPlayCorrected, {"rule": "KSI 4.2.3.2"})
    )
    after = fold(events, s)
    assert after.game.position == (STANDARD, STANDARD)
    assert (after.game.turn, after.game.dice, after.game.phase) == ("A", (3, 1), st.MOVE)
    then(after, c.Play(side="A", moves=((8, 5), (6, 5))), (ev.PlayRecorded, {"legal": True}))


def test_ksi_4_2_3_2_no_correction_after_acceptance() -> None:
    s = given(_illegal(), [c.Roll(side="B", dice=(6, 5))])
    refused(s, c.CorrectIllegalPlay(side="B"), "KSI 4.2.3.1")


def test_ksi_4_2_3_3_with_a_clock_the_same_choice_cites_the_clock_paragraph() -> None:
    s = given(opened(3, 1, clock=True), [c.Play(side="A", moves=((8, 2),))])
    then(s, c.CorrectIllegalPlay(side="B"), (ev.IllegalPlayCorrected, {"rule": "KSI 4.2.3.3"}))


def test_ksi_4_2_3_1_illegal_bear_off_of_the_last_checker_ends_only_when_accepted() -> None:
    a = side({6: 1, 0: 14})
    s = given(at(a, side({12: 15}), (2, 1)), [c.Play(side="A", moves=((6, 0),))])
    assert s.game.phase == st.ROLL and s.game.illegal
    refused(s, c.Roll(side="B", dice=(6, 5)), "KSI 4.2.3.1")
    then(
        s,
        c.AcceptIllegalPlay(side="B"),
        (ev.IllegalPlayAccepted, {}),
        (ev.GameEnded, {"kind": "gammon"}),
    )


def test_ksi_4_2_3_3_with_a_running_clock_the_correction_starts_by_stopping_it() -> None:
    s = given(
        opened(3, 1, clock=True),
        [c.StartClock(at_ms=0), c.PressClock(side="B", at_ms=0), c.Play(side="A", moves=((8, 2),))],
    )
    s = given(s, [c.PressClock(side="A", at_ms=5_000)])
    refused(s, c.CorrectIllegalPlay(side="B"), "KSI 4.2.3.3")
    s = given(s, [c.StopClock(case=7, at_ms=6_000)])
    then(s, c.CorrectIllegalPlay(side="B"), (ev.IllegalPlayCorrected, {}))
