"""Winning, last pucks together, 8+8 / 16+16, stalemate (EKML §27(3)-(6), §28(7); NOVUS08 20-21;
LV 17)."""

from __future__ import annotations

import pytest
from tableside.disciplines.korona import events as ev
from tableside.disciplines.korona.commands import ReportIncident

from .gwt import Case, S, check, pot

# ann and bob each have one puck left; ann has the turn
ONE_EACH = [pot("ann", 7), S("ann"), pot("bob", 7), S("bob")]
LAST = pot("ann", 1, opponent_pocketed=1)
STALL = {
    "kind": "bank_opposite",
    "first_contact": "none",
    "own_open_before": False,
    "own_locked_before": True,
    "only_centre": True,
}
STALLED = [S(p, **STALL) for p in ("ann", "bob") * 2] + [S("ann", **STALL)]


def annulled(reason: str, rule: str, **more: object) -> tuple:
    return (ev.GameAnnulled, {"reason": reason, "rule": rule, **more})


def ended(winner: str, rule: str) -> tuple:
    return (ev.GameEnded, {"winner": winner, "rule": rule})


CASES = [
    Case(
        "ekml_27_3_first_to_pocket_all_own_pucks_wins",
        [S("ann")],
        pot("bob", 8),
        [ended("B", "EKML §27(3)")],
    ),
    Case(
        "lv_17_1_first_to_pocket_all_wins",
        [S("ann")],
        pot("bob", 8),
        [ended("B", "LV 17.1")],
        ruleset="LV",
    ),
    Case(
        "ekml_27_3_opponents_last_puck_pocketed_for_them",
        [pot("ann", 2), S("ann"), pot("bob", 7)],
        S("bob", opponent_pocketed=6),
        [ended("A", "EKML §27(3)")],
    ),
    Case(
        "ekml_27_4_last_pucks_together_annulled_and_replayed",
        ONE_EACH,
        LAST,
        [
            annulled("last_together", "EKML §27(4)"),
            (ev.GameSetUp, {"replay": True, "opener": "ann"}),
        ],
    ),
    Case(
        "ekml_27_4_with_a_penalty_the_shooter_loses",
        ONE_EACH,
        pot("ann", 1, opponent_pocketed=1, striker="pocket"),
        [ended("B", "EKML §27(4)")],
    ),
    Case(
        "ekml_27_4_with_another_loss_of_turn_the_shooter_loses",
        ONE_EACH,
        pot("ann", 1, opponent_pocketed=1, crossed_zone_line=True),
        [ended("B", "EKML §27(4)")],
    ),
    Case(
        "novus08_20_5_only_a_penalty_loses",
        ONE_EACH,
        pot("ann", 1, opponent_pocketed=1, crossed_zone_line=True),
        [annulled("last_together", "NOVUS08 20.5")],
        ruleset="NOVUS08",
    ),
    Case(
        "lv_17_2_last_together_with_penalty_loses",
        ONE_EACH,
        pot("ann", 1, opponent_pocketed=1, striker="over"),
        [ended("B", "LV 17.2")],
        ruleset="LV",
    ),
    Case(
        "ekml_27_5_opener_clears_eight_series_stopped",
        [],
        pot("ann", 8),
        [
            (ev.SeriesStopped, {"player": "ann", "rule": "EKML §27(5)"}),
            (ev.TurnPassed, {"to": "bob"}),
        ],
        absent=(ev.GameEnded,),
    ),
    Case(
        "ekml_27_5_opponent_fails_in_first_series_opener_wins",
        [pot("ann", 8)],
        S("bob"),
        [ended("A", "EKML §27(5)")],
    ),
    Case(
        "ekml_27_5_eight_plus_eight_replayed_with_sides_swapped",
        [pot("ann", 8)],
        pot("bob", 8),
        [
            annulled("eight_eight", "EKML §27(5)", swap=True),
            (ev.GameSetUp, {"seats": ("bob", "ann"), "opener": "bob", "replay": True}),
        ],
    ),
    Case(
        "lv_17_1_eight_plus_eight_replayed",
        [pot("ann", 8)],
        pot("bob", 8),
        [annulled("eight_eight", "LV 17.1")],
        ruleset="LV",
    ),
    Case(
        "novus08_20_4_eight_plus_eight_series_stopped",
        [],
        pot("ann", 8),
        [(ev.SeriesStopped, {"rule": "NOVUS08 20.4"})],
        ruleset="NOVUS08",
    ),
    Case(
        "ekml_27_6_after_eight_plus_eight_turn_lost_on_last_stroke_loses",
        [pot("ann", 8, crossed_zone_line=True)],
        pot("bob", 8),
        [ended("B", "EKML §27(6)")],
    ),
    Case(
        "ekml_27_6_note_waiting_opener_penalised_no_missed_turn",
        [pot("ann", 8)],
        ReportIncident(code="touched_puck_handling", player="ann"),
        [(ev.PenaltyAwarded, {"side": "A"}), (ev.PenaltyPuckPlaced, {"side": "A"})],
        absent=(ev.NextTurnForfeited,),
    ),
    Case(
        "ekml_27_6_note_waiting_opener_gets_the_turn_back",
        [pot("ann", 8), ReportIncident(code="touched_puck_handling", player="ann")],
        S("bob"),
        [(ev.TurnPassed, {"to": "ann"})],
        absent=(ev.GameEnded,),
    ),
    Case(
        "ekml_27_6_stalemate_three_turns_each_annulled",
        STALLED,
        S("bob", **STALL),
        [
            annulled("stalemate", "EKML §27(6) (teine)"),
            (ev.GameSetUp, {"opener": "ann", "replay": True}),
        ],
    ),
    Case(
        "ekml_27_6_stalemate_count_resets_when_a_puck_is_touched",
        STALLED,
        S("bob", **{**STALL, "first_contact": "own_locked_centre"}),
        [(ev.TurnPassed, {"stalemate": 0})],
        absent=(ev.GameAnnulled,),
    ),
    Case(
        "novus08_20_6_stalemate_centre_or_rear_zone",
        STALLED,
        S("bob", **STALL),
        [annulled("stalemate", "NOVUS08 20.6")],
        ruleset="NOVUS08",
    ),
    Case(
        "ekml_28_7_sixteen_in_the_first_series",
        [],
        pot("ann", 16),
        [(ev.SeriesStopped, {"rule": "EKML §28(7)"}), (ev.TurnPassed, {"to": "bob"})],
        fmt="pairs",
    ),
    Case(
        "ekml_28_7_next_opponent_fails_the_openers_pair_wins",
        [pot("ann", 16)],
        S("bob"),
        [ended("A", "EKML §28(7)")],
        fmt="pairs",
    ),
    Case(
        "ekml_28_7_sixteen_plus_sixteen_replayed",
        [pot("ann", 16)],
        pot("bob", 16),
        [
            annulled("eight_eight", "EKML §28(7)"),
            (ev.GameSetUp, {"seats": ("ben", "ann", "bob", "amy"), "opener": "ben"}),
        ],
        fmt="pairs",
    ),
    Case(
        "novus08_21_1_all_finish_first_series_seats_stay_last_finisher_opens",
        [pot("ann", 16)],
        pot("bob", 16),
        [(ev.GameSetUp, {"seats": ("ann", "bob", "amy", "ben"), "opener": "bob"})],
        fmt="pairs",
        ruleset="NOVUS08",
    ),
    Case(
        "novus08_21_7_sixteen_plus_sixteen_replayed",
        [pot("ann", 16)],
        pot("bob", 16),
        [annulled("eight_eight", "NOVUS08 21.7")],
        fmt="pairs",
        ruleset="NOVUS08",
    ),
]


@pytest.mark.parametrize("case", [c.param() for c in CASES])
def test_special_ending(case: Case) -> None:
    check(case)


def test_ekml_27_5_responder_keeps_shooting_his_first_series() -> None:
    case = Case(
        "ekml_27_5_responder_series_goes_on",
        [pot("ann", 8)],
        pot("bob", 3),
        [(ev.TurnKept, {"player": "bob"})],
        absent=(ev.GameEnded,),
    )
    check(case)
