"""Where penalty pucks go and when they are owed (EKML §24(3)-(9), §28(5)-(6); NOVUS08 17.3, 21.6;
LV 15.2-15.4)."""

from __future__ import annotations

import pytest
from tableside.disciplines.korona import events as ev
from tableside.disciplines.korona.commands import ForgetDebt, ReportIncident, ZoneSurvey

from .gwt import Case, S, check, given, pot, setup

FOUL_POCKET = {"striker": "pocket"}


def placed(spot: str, rule: str = "EKML §24(3)", **more: object) -> tuple:
    return (ev.PenaltyPuckPlaced, {"spot": spot, "rule": rule, **more})


def zone(**kw: object) -> ZoneSurvey:
    return ZoneSurvey(centre_free=False, **kw)


def fouled(z: ZoneSurvey):
    return pot("ann", zone=z, **FOUL_POCKET)


DEBT_ANN = [S("ann", **FOUL_POCKET)]  # all 8 on the board: owed (EKML §24(4)); bob has the turn

CASES = [
    Case("ekml_24_3_on_the_centre_line", [], pot("ann", **FOUL_POCKET), [placed("centre_line")]),
    Case(
        "ekml_24_3_nearest_free_spot_to_the_centre_line",
        [],
        fouled(zone(nearer="right")),
        [placed("right")],
    ),
    Case(
        "ekml_24_3_equal_distance_side_with_fewer_own_pucks",
        [],
        fouled(zone(own_left=2, own_right=1)),
        [placed("right")],
    ),
    Case(
        "ekml_24_3_then_side_with_fewer_pucks_in_all",
        [],
        fouled(zone(total_left=1, total_right=3)),
        [placed("left")],
    ),
    Case(
        "ekml_24_3_no_stroke_side_tie_break",
        [],
        fouled(zone(stroke_side="right")),
        [placed("left")],
    ),
    Case(
        "novus08_17_3_then_the_side_the_stroke_was_made_from",
        [],
        fouled(zone(stroke_side="right")),
        [placed("right", "NOVUS08 17.3")],
        ruleset="NOVUS08",
    ),
    Case(
        "lv_15_2_then_the_side_the_stroke_was_made_from",
        [],
        fouled(zone(stroke_side="right")),
        [placed("right", "LV 15.2")],
        ruleset="LV",
    ),
    Case(
        "ekml_24_4_all_eight_on_board_is_a_debt",
        [],
        S("ann", **FOUL_POCKET),
        [(ev.DebtRecorded, {"side": "A", "rule": "EKML §24(4)"})],
        absent=(ev.PenaltyPuckPlaced,),
    ),
    Case(
        "lv_15_3_all_eight_on_board_is_a_debt",
        [],
        S("ann", **FOUL_POCKET),
        [(ev.DebtRecorded, {"rule": "LV 15.3"})],
        ruleset="LV",
    ),
    Case(
        "ekml_24_5_debt_placed_when_opponent_pockets_debtors_puck",
        DEBT_ANN,
        S("bob", opponent_pocketed=1),
        [(ev.PenaltyPuckPlaced, {"side": "A", "from_debt": True, "rule": "EKML §24(5)"})],
    ),
    Case(
        "novus08_17_5_no_placing_when_opponent_pockets",
        DEBT_ANN,
        S("bob", opponent_pocketed=1),
        [],
        absent=(ev.PenaltyPuckPlaced,),
        ruleset="NOVUS08",
    ),
    Case(
        "ekml_24_6_debt_placed_after_the_turn_is_lost",
        [*DEBT_ANN, S("bob")],
        pot("ann", crossed_zone_line=True),
        [
            (ev.PenaltyPuckPlaced, {"side": "A", "from_debt": True, "rule": "EKML §24(6)"}),
            (ev.TurnPassed, {"rule": "EKML §25(1)4"}),
        ],
    ),
    Case(
        "ekml_24_6_all_cleared_in_a_series_debts_placed_and_series_goes_on",
        [*DEBT_ANN, S("bob")],
        pot("ann", 8),
        [(ev.PenaltyPuckPlaced, {"from_debt": True, "rule": "EKML §24(6)"}), (ev.TurnKept, {})],
        absent=(ev.GameEnded,),
    ),
    Case(
        "ekml_24_6_note_forgotten_debt_cancelled",
        DEBT_ANN,
        ForgetDebt(side="A"),
        [(ev.DebtCancelled, {"side": "A", "count": 1, "rule": "EKML §24(6) märkus"})],
    ),
    Case(
        "novus08_17_4_forgotten_debt_cancelled",
        DEBT_ANN,
        ForgetDebt(side="A"),
        [(ev.DebtCancelled, {"rule": "NOVUS08 17.4"})],
        ruleset="NOVUS08",
    ),
    Case(
        "lv_15_3_has_no_forgotten_debt_rule",
        DEBT_ANN,
        ForgetDebt(side="A"),
        error="LV 15.3",
        ruleset="LV",
    ),
    Case(
        "ekml_24_7_debts_go_down_together_never_above_the_start",
        [*DEBT_ANN, S("bob"), S("ann", **FOUL_POCKET), S("bob")],
        pot("ann", crossed_zone_line=True),
        [(ev.PenaltyPuckPlaced, {"from_debt": True, "rule": "EKML §24(7)"})],
    ),
    Case(
        "ekml_24_9_over_the_cushion_after_a_correct_stroke_is_no_penalty",
        [],
        pot("ann", own_over=1),
        [
            (ev.PucksToCentre, {"side": "A", "rule": "EKML §20(14)"}),
            (ev.TurnPassed, {"rule": "EKML §25(1)3"}),
        ],
        absent=(ev.PenaltyAwarded,),
    ),
    Case(
        "ekml_28_5_pairs_penalty_to_the_player_with_the_turn",
        [pot("ann")],
        ReportIncident(code="touched_puck_handling", player="amy"),
        [
            (ev.PenaltyAwarded, {"side": "A", "player": "ann", "rule": "EKML §28(5)"}),
            (ev.TurnPassed, {"to": "bob"}),
        ],
        fmt="pairs",
    ),
    Case(
        "ekml_28_5_example_2_partner_of_the_offender_takes_it_and_misses_a_turn",
        [S("ann")],
        ReportIncident(code="moved_puck_in_opponent_turn", player="ann"),
        [
            (ev.PenaltyAwarded, {"side": "A", "player": "amy", "rule": "EKML §28(5)"}),
            (ev.NextTurnForfeited, {"player": "amy", "rule": "EKML §24(8)"}),
        ],
        fmt="pairs",
    ),
    Case(
        "ekml_28_6_pairs_debt_until_the_opposite_row_has_moved",
        [pot("ann")],
        ReportIncident(code="touched_puck_handling", player="ann"),
        [(ev.PenaltyPuckPlaced, {"player": "ann"})],
        fmt="pairs",
    ),
    Case(
        "ekml_28_6_pairs_row_unmoved_is_a_debt",
        [S("ann")],
        ReportIncident(code="moved_puck_in_opponent_turn", player="ann"),
        [(ev.DebtRecorded, {"player": "amy", "rule": "EKML §28(6)"})],
        fmt="pairs",
    ),
    Case(
        "novus08_21_6_pairs_row_unmoved_is_a_debt",
        [S("ann")],
        ReportIncident(code="moved_puck_in_opponent_turn", player="ann"),
        [(ev.DebtRecorded, {"player": "amy", "rule": "NOVUS08 21.6"})],
        fmt="pairs",
        ruleset="NOVUS08",
    ),
]


@pytest.mark.parametrize("case", [c.param() for c in CASES])
def test_placement_and_debt(case: Case) -> None:
    check(case)


def test_ekml_24_7_the_rest_stays_debt() -> None:
    case = next(c for c in CASES if c.id.startswith("ekml_24_7"))
    state = given(setup(), [*case.given, case.when])
    assert state.game.pucks[0].debt == 1
    assert state.game.pucks[0].on_board == 8


def test_ekml_24_6_pairs_clearing_with_debt_ends_the_series() -> None:
    past = [pot("ann"), S("ann", striker="pocket"), S("bob"), S("amy", striker="pocket"), S("ben")]
    state = given(setup(fmt="pairs"), past)
    assert state.game.pucks[0].debt == 1
    check(
        Case(
            "ekml_24_6_pairs_debt_not_placed_at_once",
            past,
            pot("ann", 16),
            [(ev.TurnPassed, {"rule": "EKML §24(6)"})],
            fmt="pairs",
        )
    )


def test_novus08_21_5_pairs_penalty_to_the_player_with_the_turn() -> None:
    case = Case(
        "novus08_21_5",
        [pot("ann")],
        ReportIncident(code="touched_puck_handling", player="amy"),
        [(ev.PenaltyAwarded, {"player": "ann", "rule": "NOVUS08 21.5"})],
        fmt="pairs",
        ruleset="NOVUS08",
    )
    check(case)


def test_ekml_24_3_several_at_once_first_on_the_centre_line() -> None:
    from tableside.disciplines.korona.penalties import choose_spots

    assert choose_spots(ZoneSurvey(), 3, False) == ["centre_line", "left", "right"]
    crowded = ZoneSurvey(centre_free=False, own_left=1)
    assert choose_spots(crowded, 2, False) == ["right", "left"]


def test_ekml_28_5_28_6_a_partners_debt_goes_down_opposite_the_player_losing_the_turn() -> None:
    """EKML §28(5): "asetatakse trahviseib ainult löögil oleva (või selle lõppedes löögikorra
    ootel oleva) mängija vastaspoolsesse poorditsooni" — every penalty puck goes opposite the
    player with the turn. §28(6): unplaceable, it is a debt "esialgselt" (initially) under
    §24(4)-(6); §24(6) places it once the player loses the turn. So ann's debt (her row
    unmoved) goes down opposite amy when amy loses the turn, amy's row having moved."""
    past = [S("ann", first_contact="opponent"), S("bob"), pot("amy")]
    state = given(setup(fmt="pairs"), past[:1])
    assert state.game.pucks[0].debt == 1 and "ann" not in state.game.rows_moved
    check(
        Case(
            "ekml_28_5_pairs_debt_placed_for_the_player_losing_the_turn",
            past,
            S("amy"),
            [
                (
                    ev.PenaltyPuckPlaced,
                    {"player": "amy", "from_debt": True, "rule": "EKML §24(6), EKML §28(5)"},
                ),
                (ev.TurnPassed, {"player": "amy"}),
            ],
            fmt="pairs",
        )
    )
