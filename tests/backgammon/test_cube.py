"""The doubling cube (KSI 4.4) and the Crawford rule (KSI 4.4.4)."""

from __future__ import annotations

from msgspec.structs import replace
from tableside.disciplines.backgammon import commands as c
from tableside.disciplines.backgammon import events as ev
from tableside.disciplines.backgammon import fold
from tableside.disciplines.backgammon import state as st

from .gwt import given, match, opened, refused, side, then

B_TO_ROLL = [c.Play(side="A", moves=((8, 5), (6, 5)))]


def _b_to_roll(**kw) -> st.MatchState:
    return given(opened(3, 1, **kw), B_TO_ROLL)


def test_ksi_4_4_1_cube_starts_centred_at_64() -> None:
    s = given(match(), [c.StartGame()])
    assert (s.game.cube, s.game.owner, s.game.crawford) == (1, "", False)
    then(match(), c.StartGame(), (ev.GameStarted, {"rule": "KSI 4.4.1", "crawford": False}))


def test_ksi_4_4_2_double_before_rolling() -> None:
    s = _b_to_roll()
    events = then(s, c.Double(side="B"), (ev.DoubleOffered, {"value": 2, "rule": "KSI 4.4.2"}))
    assert fold(events, s).game.phase == st.DOUBLED


def test_ksi_4_4_2_no_double_after_rolling() -> None:
    s = given(_b_to_roll(), [c.Roll(side="B", dice=(6, 5))])
    refused(s, c.Double(side="B"), "KSI 4.4.2")


def test_ksi_4_4_2_no_double_after_an_invalid_roll() -> None:
    s = given(_b_to_roll(), [c.Roll(side="B", invalid="left of the bar")])
    e = refused(s, c.Double(side="B"), "KSI 4.4.2")
    assert "invalid" in e.message


def test_ksi_4_4_2_only_the_cube_owner_redoubles() -> None:
    s = given(_b_to_roll(), [c.Double(side="B"), c.Take(side="A")])
    refused(s, c.Double(side="B"), "KSI 1.2.1")  # he rolls now; the cube is A's
    s = given(s, [c.Roll(side="B", dice=(6, 5)), c.Play(side="B", moves=((24, 18), (18, 13)))])
    refused(s, c.Double(side="B"), "KSI 1.2.1")  # not his turn and not his cube
    then(s, c.Double(side="A"), (ev.DoubleOffered, {"value": 4}))


def test_ksi_4_4_3_take_turns_the_cube_to_the_taker() -> None:
    s = given(_b_to_roll(), [c.Double(side="B")])
    events = then(s, c.Take(side="A"), (ev.DoubleTaken, {"value": 2, "rule": "KSI 4.4.3"}))
    after = fold(events, s)
    assert (after.game.cube, after.game.owner, after.game.turn) == (2, "A", "B")
    assert after.game.phase == st.ROLL_ONLY
    refused(s, c.Take(side="B"), "KSI 4.4.3")


def test_ksi_4_4_3_drop_ends_the_game_at_the_cube_value() -> None:
    s = given(_b_to_roll(), [c.Double(side="B")])
    events = then(
        s,
        c.Drop(side="A"),
        (ev.DoubleDropped, {"rule": "KSI 4.4.3"}),
        (ev.GameEnded, {"winner": "B", "points": 1, "by": "drop", "score": (0, 1)}),
    )
    assert fold(events, s).game.phase == st.OVER


def _crawford_game() -> st.MatchState:
    s = match(length=3)
    s = given(s, [c.StartGame(), c.RollOpening(die_a=3, die_b=1)])
    s = given(s, [*B_TO_ROLL, c.Double(side="B"), c.Drop(side="A")])  # 0-1
    s = given(s, [c.StartGame(), c.RollOpening(die_a=3, die_b=1), *B_TO_ROLL])
    s = given(s, [c.Double(side="B"), c.Drop(side="A")])  # 0-2: B needs one point
    return s


def test_ksi_4_4_4_crawford_game_computed_and_cube_dead() -> None:
    s = _crawford_game()
    assert s.score == (0, 2) and not s.crawford_played
    events = then(s, c.StartGame(), (ev.GameStarted, {"crawford": True, "rule": "KSI 4.4.4"}))
    s = fold(events, s)
    s = given(s, [c.RollOpening(die_a=3, die_b=1), *B_TO_ROLL])
    events = then(s, c.Double(side="B"), (ev.DoubleVoided, {"rule": "KSI 4.4.4"}))
    assert fold(events, s).game == s.game  # void: nothing changes
    then(s, c.Double(side="A"), (ev.DoubleVoided, {}))


def test_ksi_4_4_4_post_crawford_the_cube_lives_again() -> None:
    s = given(_crawford_game(), [c.StartGame(), c.RollOpening(die_a=3, die_b=1), *B_TO_ROLL])
    assert s.game.crawford and s.crawford_played
    s = replace(s, score=(1, 2), game=replace(s.game, phase=st.OVER))  # A won the Crawford game
    events = then(s, c.StartGame(), (ev.GameStarted, {"crawford": False, "rule": "KSI 4.4.1"}))
    s = given(fold(events, s), [c.RollOpening(die_a=3, die_b=1), *B_TO_ROLL])
    then(s, c.Double(side="B"), (ev.DoubleOffered, {"rule": "KSI 4.4.2"}))


def test_ksi_4_4_4_only_one_crawford_game() -> None:
    s = replace(_crawford_game(), crawford_played=True, score=(1, 2))
    then(s, c.StartGame(), (ev.GameStarted, {"crawford": False}))
    s = replace(s, crawford_played=False, score=(2, 0))  # A reached 2 of 3 first
    then(s, c.StartGame(), (ev.GameStarted, {"crawford": True}))


def test_ksi_4_4_5_premature_double_takes_effect_after_the_move() -> None:
    s = opened(3, 1)  # A still moving
    events = then(s, c.Double(side="B"), (ev.DoubleOffered, {"early": True, "rule": "KSI 4.4.5"}))
    s = fold(events, s)
    assert s.game.phase == st.MOVE and s.game.turn == "A"
    refused(s, c.Take(side="A"), "KSI 4.4.3")  # need not answer before it takes effect
    s = given(s, B_TO_ROLL)
    assert (s.game.phase, s.game.turn) == (st.DOUBLED, "B")
    then(s, c.Take(side="A"), (ev.DoubleTaken, {"value": 2}))


def test_ksi_4_4_5_premature_double_must_be_otherwise_legal() -> None:
    s = given(_b_to_roll(), [c.Double(side="B"), c.Take(side="A")])
    s = given(s, [c.Roll(side="B", dice=(6, 5))])  # B moving; the cube is A's
    refused(s, c.Double(side="B"), "KSI 1.2.1")


def test_ksi_4_4_6_wrong_cube_value_corrected_take_stands() -> None:
    s = given(_b_to_roll(), [c.Double(side="B", shown=4)])
    events = then(
        s,
        c.Take(side="A"),
        (ev.DoubleTaken, {"value": 2}),
        (ev.CubeValueCorrected, {"shown": 4, "value": 2, "rule": "KSI 4.4.6"}),
    )
    assert fold(events, s).game.cube == 2


def test_ksi_4_4_6_wrong_cube_value_corrected_drop_stands() -> None:
    s = given(_b_to_roll(), [c.Double(side="B", shown=8)])
    then(
        s,
        c.Drop(side="A"),
        (ev.DoubleDropped, {}),
        (ev.CubeValueCorrected, {"shown": 8, "value": 2}),
        (ev.GameEnded, {"points": 1}),
    )


def test_ksi_4_4_3_gammon_counts_the_cube() -> None:
    from .gwt import at

    s = at(side({1: 1, 0: 14}), side({12: 15}), (2, 1), cube=4, owner="A")
    then(s, c.Play(side="A", moves=((1, 0),)), (ev.GameEnded, {"points": 8, "cube": 4}))


def test_ksi_4_4_6_a_wrong_cube_value_found_later_is_corrected_and_the_take_stands() -> None:
    s = opened(3, 1)
    refused(s, c.CorrectCubeValue(value=2), "KSI 4.4.6")  # no double taken yet
    s = given(s, [c.Play(side="A", moves=((8, 5), (6, 5))), c.Double(side="B"), c.Take(side="A")])
    assert s.game.cube == 2 and s.game.owner == "A"
    refused(s, c.CorrectCubeValue(value=3), "KSI 4.4.6")
    refused(s, c.CorrectCubeValue(value=2), "KSI 4.4.6")
    events = then(
        s,
        c.CorrectCubeValue(value=4),
        (ev.CubeValueCorrected, {"shown": 2, "value": 4, "rule": "KSI 4.4.6"}),
    )
    after = fold(events, s)
    assert after.game.cube == 4 and after.game.owner == "A"
