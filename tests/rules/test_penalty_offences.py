"""The penalty-puck offences (EKML §24(1)4-19, §24(2), §24(8); NOVUS08 17.1; pairs §28(3)-(4))."""

from __future__ import annotations

import re

import pytest
from tableside.disciplines.korona import events as ev
from tableside.disciplines.korona.commands import (
    DeclineTurn,
    GiveRemark,
    ReportIncident,
    ReportTimeExceeded,
)

from .gwt import Case, S, check, pot

PEN = (ev.PenaltyAwarded, {})
LOST = (ev.TurnPassed, {"rule": "EKML §25(1)7"})


def foul(code: str, rule: str) -> tuple:
    return (ev.FoulCommitted, {"code": code, "rule": rule})


def judged(code: str, rule: str, ruleset: str = "EKML") -> Case:
    name = "_".join([ruleset.lower(), *re.findall(r"\d+", rule.split(" ", 1)[1])])
    return Case(
        f"{name}_{code}", [], pot("ann", offences=(code,)), [foul(code, rule), PEN], ruleset=ruleset
    )


INCIDENT_BOB = ReportIncident(code="moved_puck_in_opponent_turn", player="bob")


def _legal_into_lock(case_id: str, rule: str, ruleset: str = "EKML", centre: bool = False) -> Case:
    """Pairs: a legal stroke (an own open puck first) leaves the opponent's puck in a lock: it
    stays, with no foul and no penalty puck (decision 0185)."""
    into = {"opponent_into_centre" if centre else "opponent_into_zone": 1}
    return Case(
        case_id,
        [],
        pot("ann", **into),
        [(ev.OpponentPucksLeft, {"rule": rule}), (ev.TurnKept, {})],
        absent=(ev.FoulCommitted, ev.PenaltyAwarded, ev.PucksRestored),
        fmt="pairs",
        ruleset=ruleset,
    )


CASES = [
    Case(
        "ekml_24_1_4_striker_in_pocket",
        [],
        pot("ann", striker="pocket"),
        [
            foul("striker_pocket", "EKML §24(1)4"),
            PEN,
            (ev.PenaltyPuckPlaced, {"side": "A", "spot": "centre_line"}),
            LOST,
        ],
    ),
    Case(
        "ekml_24_1_5_striker_over_the_cushion",
        [],
        pot("ann", striker="over"),
        [foul("striker_over", "EKML §24(1)5"), PEN, LOST],
    ),
    Case(
        "ekml_24_1_7_tactical_pass",
        [],
        DeclineTurn(player="ann"),
        [foul("pass", "EKML §24(1)7"), PEN, (ev.DebtRecorded, {"rule": "EKML §24(4)"}), LOST],
    ),
    judged("double_hit", "EKML §24(1)9"),
    judged("placing_touched_puck", "EKML §24(1)10"),
    judged("lifted_striker_early", "EKML §24(1)12"),
    judged("placed_while_judge_busy", "EKML §24(1)12 märkus"),
    judged("touched_moving_puck", "EKML §24(1)13"),
    judged("touched_puck_handling", "EKML §24(1)14"),
    judged("thick_end_of_cue", "EKML §24(1)17"),
    judged("striker_broke", "EKML §24(1)19"),
    judged("double_hit", "NOVUS08 17.1.10", "NOVUS08"),
    judged("touched_moving_striker", "NOVUS08 17.1.13", "NOVUS08"),
    judged("thick_end_of_cue", "NOVUS08 17.1.19", "NOVUS08"),
    Case(
        "novus08_18_1_7_placed_while_judge_busy_loses_turn_only",
        [],
        pot("ann", offences=("placed_while_judge_busy",)),
        [(ev.TurnPassed, {"rule": "NOVUS08 18.1.7"})],
        absent=(ev.PenaltyAwarded,),
        ruleset="NOVUS08",
    ),
    Case(
        "novus08_16_1_11_touching_a_moving_puck_loses_the_game",
        [],
        pot("ann", offences=("touched_moving_puck",)),
        [(ev.GameEnded, {"winner": "B", "rule": "NOVUS08 16.1.11"})],
        ruleset="NOVUS08",
    ),
    Case(
        "ekml_24_1_14_touching_a_puck_in_own_turn",
        [pot("ann")],
        ReportIncident(code="touched_puck_handling", player="ann"),
        [foul("touched_puck_handling", "EKML §24(1)14"), PEN, LOST],
    ),
    Case(
        "ekml_24_1_15_moved_puck_in_opponent_turn",
        [pot("ann")],
        INCIDENT_BOB,
        [
            foul("moved_puck_in_opponent_turn", "EKML §24(1)15"),
            (ev.PucksRestored, {"side": "B"}),
            (ev.PenaltyAwarded, {"side": "B", "player": "bob"}),
            (ev.DebtRecorded, {"side": "B"}),
            (ev.NextTurnForfeited, {"player": "bob", "rule": "EKML §24(8)"}),
        ],
    ),
    Case(
        "ekml_24_1_15_own_turn_is_not_the_opponents",
        [],
        ReportIncident(code="moved_puck_in_opponent_turn", player="ann"),
        error="EKML §24(1)15",
    ),
    Case(
        "ekml_24_8_placed_at_once_and_offender_misses_next_turn",
        [S("ann"), pot("bob"), S("bob")],
        INCIDENT_BOB,
        [
            (ev.PenaltyPuckPlaced, {"side": "B", "rule": "EKML §24(3)"}),
            (ev.NextTurnForfeited, {"player": "bob"}),
        ],
    ),
    Case(
        "ekml_24_8_offender_turn_skipped",
        [pot("ann"), INCIDENT_BOB],
        S("ann"),
        [
            (ev.TurnSkipped, {"player": "bob", "rule": "EKML §24(8)"}),
            (ev.TurnPassed, {"to": "ann"}),
        ],
    ),
    Case(
        "ekml_24_1_16_foul_direct_hit_knocks_opponent_over",
        [],
        S("ann", first_contact="opponent", opponent_over=1),
        [
            foul("opponent_over_foul", "EKML §24(1)16"),
            (ev.PucksRestored, {"side": "B", "what": "over", "rule": "EKML §21(9)"}),
            PEN,
        ],
    ),
    Case(
        "ekml_24_1_18_thirty_seconds_exceeded_under_limit",
        [GiveRemark(player="ann", reason="slow_play")],
        ReportTimeExceeded(player="ann", limit="30s"),
        [foul("time_30s", "EKML §24(1)18"), PEN, LOST],
    ),
    Case(
        "ekml_24_2_one_penalty_puck_per_stroke",
        [],
        S("ann", first_contact="opponent", striker="pocket", offences=("double_hit",)),
        [(ev.PenaltyAwarded, {"rule": "EKML §24(2)"})],
    ),
    Case(  # §21(7) "otselöögiga", with §28(3)'s consequence in pairs (decision 0185)
        "ekml_28_3_pairs_direct_hit_drives_opponent_into_rear_zone_not_restored_penalised",
        [],
        S("ann", first_contact="opponent", opponent_into_zone=1),
        [foul("into_lock", "EKML §28(3)"), (ev.OpponentPucksLeft, {"rule": "EKML §28(3)"}), PEN],
        absent=(ev.PucksRestored,),
        fmt="pairs",
    ),
    # §21(8)2: the striker legally touched an own puck first; §28(3) does not apply
    _legal_into_lock(
        "ekml_28_3_pairs_legal_stroke_leaves_opponent_in_rear_zone_no_penalty", "EKML §21(8)"
    ),
    Case(
        "ekml_28_4_pairs_direct_hit_drives_opponent_into_centre_restored",
        [],
        S("ann", first_contact="opponent", opponent_into_centre=1),
        [foul("into_lock", "EKML §28(4)"), (ev.PucksRestored, {"rule": "EKML §28(4)"}), PEN],
        fmt="pairs",
    ),
    _legal_into_lock(
        "ekml_28_4_pairs_legal_stroke_leaves_opponent_in_centre_no_penalty",
        "EKML §21(8)",
        centre=True,
    ),
    Case(
        "novus08_17_1_20_pairs_direct_stroke_into_rear_zone",
        [],
        S("ann", first_contact="opponent", opponent_into_zone=1),
        [
            foul("into_lock", "NOVUS08 17.1.20"),
            (ev.OpponentPucksLeft, {"rule": "NOVUS08 17.1.20"}),
            PEN,
        ],
        fmt="pairs",
        ruleset="NOVUS08",
    ),
    _legal_into_lock(
        "novus08_13_7_2_pairs_legal_stroke_into_rear_zone_no_penalty", "NOVUS08 13.7", "NOVUS08"
    ),
    Case(
        "lv_18_2_pairs_direct_stroke_into_rear_zone_only_penalty",
        [],
        S("ann", first_contact="opponent", opponent_into_zone=1),
        [(ev.OpponentPucksLeft, {"rule": "LV 18.2"}), PEN],
        absent=(ev.PucksRestored,),
        fmt="pairs",
        ruleset="LV",
    ),
    # 18.2 "par šādu pārkāpumu": a correct stroke is no violation (14.5 a contrario)
    _legal_into_lock("lv_18_2_pairs_correct_stroke_into_rear_zone_no_penalty", "LV 14.5", "LV"),
]


@pytest.mark.parametrize("case", [c.param() for c in CASES])
def test_penalty_offence(case: Case) -> None:
    check(case)


def test_ekml_24_2_only_one_penalty_puck_however_many_offences() -> None:
    events = check(next(c for c in CASES if c.id == "ekml_24_2_one_penalty_puck_per_stroke"))
    assert sum(type(e) is ev.PenaltyAwarded for e in events) == 1
