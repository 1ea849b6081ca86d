"""The match: conduct, no-show, sides, opening shot, result and points (EKML §22, §27(2), §28(1),
§31, §32; NOVUS08 15, 22, 23)."""

from __future__ import annotations

import pytest
from tableside.disciplines.korona import RuleViolation, decide, fold, initial_state
from tableside.disciplines.korona import events as ev
from tableside.disciplines.korona.commands import (
    AssignOpeningShot,
    CreateMatch,
    GiveWarning,
    ReportIncident,
)

from .gwt import PAIRS, SINGLES, Case, S, check, pot


def match_ended(winner: str, **more: object) -> tuple:
    return (ev.MatchEnded, {"winner": winner, **more})


WON_BY_BOB = [S("ann"), pot("bob", 8)]

CASES = [
    Case(
        "ekml_22_1_repeated_yellow_card_loses_the_match",
        [GiveWarning(player="ann")],
        GiveWarning(player="ann"),
        [
            (ev.WarningGiven, {"rule": "EKML §22(1)"}),
            (ev.PlayerRemoved, {"scope": "competition"}),
            match_ended("B", rule="EKML §22(1)"),
        ],
    ),
    Case(
        "ekml_9_5_first_yellow_card_is_a_warning",
        [],
        GiveWarning(player="ann"),
        [(ev.WarningGiven, {"card": "yellow", "rule": "EKML §9(5)"})],
        absent=(ev.MatchEnded,),
    ),
    Case(
        "ekml_22_1_red_card",
        [],
        GiveWarning(player="bob", card="red"),
        [(ev.PlayerRemoved, {"player": "bob"}), match_ended("A")],
    ),
    Case(
        "novus08_14_1_red_card_removal",
        [],
        GiveWarning(player="bob", card="red"),
        [(ev.PlayerRemoved, {"rule": "NOVUS08 14.1"}), match_ended("A")],
        ruleset="NOVUS08",
    ),
    Case(
        "ekml_22_2_handshake_refused_disqualified",
        [],
        ReportIncident(code="handshake_refused", player="ann"),
        [(ev.PlayerRemoved, {"rule": "EKML §22(2)"}), match_ended("B")],
    ),
    Case(
        "ekml_22_3_no_show_within_2_minutes",
        [],
        ReportIncident(code="no_show", player="bob"),
        [match_ended("A", forfeit=True, rule="EKML §22(3)")],
    ),
    Case(
        "ekml_22_3_no_show_only_before_play",
        [pot("ann")],
        ReportIncident(code="no_show", player="bob"),
        error="EKML §22(3)",
    ),
    Case(
        "ekml_22_4_unsporting_needs_the_head_judge",
        [],
        ReportIncident(code="unsporting", player="bob"),
        error="EKML §22(4)",
    ),
    Case(
        "ekml_22_4_unsporting_confirmed_loses_the_match",
        [],
        ReportIncident(code="unsporting", player="bob", confirmed=True),
        [match_ended("A")],
    ),
    Case(
        "ekml_22_4_unsporting_records_who_confirmed",
        [],
        ReportIncident(code="unsporting", player="bob", confirmed=True, confirmed_by="head"),
        [(ev.IncidentReported, {"confirmed_by": "head"}), match_ended("A")],
    ),
    Case(
        "novus08_15_2_unsporting_loses_the_match",
        [],
        ReportIncident(code="unsporting", player="bob"),
        [match_ended("A", rule="NOVUS08 15.2")],
        ruleset="NOVUS08",
    ),
    Case(
        "ekml_9_4_withdrawal_removes_the_player",
        [pot("ann")],
        ReportIncident(code="withdrew", player="ann"),
        [(ev.PlayerRemoved, {"rule": "EKML §9(4)"}), match_ended("B", forfeit=True)],
    ),
    Case(
        "ekml_27_2_sides_change_opening_stays_with_the_table_side",
        WON_BY_BOB[:1],
        WON_BY_BOB[1],
        [
            (ev.GameEnded, {"winner": "B"}),
            (
                ev.GameSetUp,
                {"game_no": 2, "seats": ("bob", "ann"), "opener": "bob", "rule": "EKML §27(2)"},
            ),
        ],
        games=2,
    ),
    Case(
        "ekml_28_1_pairs_move_one_seat_clockwise",
        [S("ann")],
        pot("bob", 16),
        [
            (
                ev.GameSetUp,
                {"game_no": 2, "seats": ("ben", "ann", "bob", "amy"), "rule": "EKML §28(1)"},
            )
        ],
        fmt="pairs",
        games=2,
    ),
    Case(
        "ekml_32_1_stops_when_more_than_half_won",
        WON_BY_BOB[:1],
        WON_BY_BOB[1],
        [match_ended("B", games_a=0, games_b=1, rule="EKML §32(1)")],
    ),
    Case(
        "ekml_32_1_best_of_three_stops_at_two_nil",
        [*WON_BY_BOB, S("bob"), S("ann")],
        pot("bob", 8),
        [match_ended("B", games_a=0, games_b=2, rule="EKML §32(1)")],
        games=3,
    ),
    Case(
        "ekml_32_1_even_count_can_be_drawn",
        [*WON_BY_BOB, S("bob")],
        pot("ann", 8),
        [match_ended("", games_a=1, games_b=1, points_a=1.0, points_b=1.0, rule="EKML §32(2)")],
        games=2,
    ),
    Case(
        "ekml_32_2_singles_win_2_points",
        WON_BY_BOB[:1],
        WON_BY_BOB[1],
        [match_ended("B", points_a=0.0, points_b=2.0, rule="EKML §32(2)")],
    ),
    Case(
        "ekml_32_2_pairs_win_4_points",
        [S("ann")],
        pot("bob", 16),
        [match_ended("B", points_b=4.0)],
        fmt="pairs",
    ),
    Case(
        "novus08_23_1_decided_match_stops",
        WON_BY_BOB[:1],
        WON_BY_BOB[1],
        [match_ended("B", rule="NOVUS08 23.1")],
        ruleset="NOVUS08",
    ),
]


@pytest.mark.parametrize("case", [c.param() for c in CASES])
def test_match(case: Case) -> None:
    check(case)


def _opening(cmd: AssignOpeningShot, ruleset: str = "EKML", fmt: str = "singles") -> tuple:
    a, b = PAIRS if fmt == "pairs" else SINGLES
    state = fold(
        decide(
            initial_state(), CreateMatch(match_id="m", side_a=a, side_b=b, ruleset=ruleset, fmt=fmt)
        )
    )
    return decide(state, cmd)


def test_ekml_31_1_1_round_robin_first_listed_opens() -> None:
    events = _opening(AssignOpeningShot(method="listing"))
    assert events[0].side == "A" and events[0].rule == "EKML §31(1)1"
    assert events[1].opener == "ann"


def test_ekml_31_1_2_lot_decides_coin_toss() -> None:
    events = _opening(AssignOpeningShot(method="lot", lot_winner="B"))
    assert events[0].rule == "EKML §31(1)2" and events[1].seats == ("bob", "ann")


def test_ekml_31_1_2_lot_needs_a_winner() -> None:
    with pytest.raises(RuleViolation) as info:
        _opening(AssignOpeningShot(method="lot"))
    assert info.value.field == "lot_winner"


def test_novus08_22_1_2_elimination_odd_games_first_listed() -> None:
    events = _opening(AssignOpeningShot(method="odd_even"), "NOVUS08")
    assert events[0].side == "A" and events[0].rule == "NOVUS08 22.1.2"


def test_ekml_31_odd_even_is_not_ekml() -> None:
    with pytest.raises(RuleViolation):
        _opening(AssignOpeningShot(method="odd_even"))


def test_ekml_31_2_team_boards_alternate_from_board_one() -> None:
    two = _opening(AssignOpeningShot(method="team", lot_winner="A", board=2))
    assert two[0].side == "B" and two[0].rule == "EKML §31(2)"


def test_novus08_22_2_guests_open_the_first_series() -> None:
    events = _opening(AssignOpeningShot(method="team", board=1), "NOVUS08")
    assert events[0].side == "B"


def test_ekml_31_3_pair_chooses_its_opener_opponents_may_swap() -> None:
    cmd = AssignOpeningShot(method="lot", lot_winner="A", opener="amy", opponent_first="ben")
    events = _opening(cmd, fmt="pairs")
    assert events[0].seats == ("amy", "ben", "ann", "bob")


def test_novus08_23_1_play_all_games_when_the_guide_says() -> None:
    state = initial_state()
    for cmd in (
        CreateMatch(match_id="m", side_a=("ann",), side_b=("bob",), games=2, play_all=True),
        AssignOpeningShot(method="listing"),
        S("ann"),
        pot("bob", 8),
    ):
        state = fold(decide(state, cmd), state)
    assert not state.ended and state.game.game_no == 2


def test_ekml_32_2_guide_points_scale() -> None:
    cmd = CreateMatch(match_id="m", side_a=("ann",), side_b=("bob",), points=(1.5, 1.0, 0.5))
    events = decide(initial_state(), cmd)
    assert events[0].points == (1.5, 1.0, 0.5) and events[0].rule == "EKML §32(2)"


def _guided(opening: str) -> object:
    """A match whose competition's guide decided how it opens (CreateMatch.opening)."""
    a, b = SINGLES
    return fold(
        decide(initial_state(), CreateMatch(match_id="m", side_a=a, side_b=b, opening=opening))
    )


def test_ekml_31_1_1_round_robin_guide_refuses_the_lot() -> None:
    with pytest.raises(RuleViolation) as info:
        decide(_guided("listing"), AssignOpeningShot(method="lot", lot_winner="B"))
    assert info.value.rule == "EKML §31(1)1" and info.value.code == "opening_by_listing"
    assert decide(_guided("listing"), AssignOpeningShot(method="listing"))[0].side == "A"


def test_ekml_31_1_2_a_guide_by_lot_refuses_the_first_listed() -> None:
    with pytest.raises(RuleViolation) as info:
        decide(_guided("lot"), AssignOpeningShot(method="listing"))
    assert info.value.rule == "EKML §31(1)2" and info.value.code == "opening_by_lot"
    assert _guided("lot").opening == "lot"
