"""Another stroke or loss of the turn (EKML §20(7)-(8), §25(1), §26(4); NOVUS08 18.1; LV 16.1)."""

from __future__ import annotations

import pytest
from tableside.disciplines.korona import events as ev
from tableside.disciplines.korona.commands import GiveRemark, ReportTimeExceeded

from .gwt import Case, S, check, pot

SLOW = GiveRemark(player="ann", reason="slow_play")


def passed(rule: str, to: str = "bob") -> tuple:
    return (ev.TurnPassed, {"player": "ann", "to": to, "rule": rule})


CASES = [
    Case(
        "ekml_20_8_own_puck_pocketed_another_stroke",
        [],
        pot("ann", 2),
        [(ev.TurnKept, {"rule": "EKML §20(8)"})],
        absent=(ev.TurnPassed,),
    ),
    Case("ekml_25_1_1_no_own_puck_pocketed", [], S("ann"), [passed("EKML §25(1)1")]),
    Case(
        "ekml_25_1_2_opponent_puck_pocketed_with_own",
        [],
        pot("ann", opponent_pocketed=1),
        [passed("EKML §25(1)2")],
    ),
    Case(
        "ekml_25_1_3_puck_over_the_cushion",
        [],
        pot("ann", opponent_over=1),
        [(ev.PucksToCentre, {"side": "B"}), passed("EKML §25(1)3")],
    ),
    Case(
        "ekml_25_1_4_striker_crossed_own_zone_line",
        [],
        pot("ann", crossed_zone_line=True),
        [passed("EKML §25(1)4")],
    ),
    Case(
        "ekml_20_7_zone_line_crossed_with_a_locked_puck_keeps_the_turn",
        [],
        pot("ann", crossed_zone_line=True, own_locked_before=True),
        [(ev.TurnKept, {"rule": "EKML §20(7)"})],
        absent=(ev.TurnPassed,),
    ),
    Case(
        "ekml_25_1_5_left_the_play_area",
        [],
        pot("ann", offences=("left_play_area",)),
        [passed("EKML §25(1)5")],
        absent=(ev.PenaltyAwarded,),
    ),
    Case(
        "ekml_25_1_5_disturbed_the_opponent",
        [],
        pot("ann", offences=("disturbed_opponent",)),
        [passed("EKML §25(1)5")],
        absent=(ev.PenaltyAwarded,),
    ),
    Case(
        "ekml_25_1_6_struck_the_table",
        [],
        pot("ann", offences=("struck_table",)),
        [passed("EKML §25(1)6")],
        absent=(ev.PenaltyAwarded,),
    ),
    Case(
        "ekml_25_1_7_penalty_puck_offence", [], pot("ann", striker="over"), [passed("EKML §25(1)7")]
    ),
    Case(
        "ekml_26_4_no_stroke_within_5_s_after_slow_play_remark",
        [SLOW],
        ReportTimeExceeded(player="ann", limit="5s"),
        [passed("EKML §26(4)")],
        absent=(ev.PenaltyAwarded,),
    ),
    Case(
        "ekml_26_4_no_time_limit_without_a_slow_play_remark",
        [],
        ReportTimeExceeded(player="ann", limit="30s"),
        error="EKML §26(4)",
    ),
    Case(
        "novus08_18_1_6_after_warning_30_s_plus_5_s_loses_the_turn",
        [SLOW],
        ReportTimeExceeded(player="ann", limit="30s"),
        [passed("NOVUS08 18.1.6")],
        absent=(ev.PenaltyAwarded,),
        ruleset="NOVUS08",
    ),
    Case(
        "novus08_17_1_18_repeated_warning_then_30_s_penalty",
        [SLOW, SLOW],
        ReportTimeExceeded(player="ann", limit="30s"),
        [
            (ev.FoulCommitted, {"rule": "NOVUS08 17.1.18"}),
            (ev.PenaltyAwarded, {}),
            passed("NOVUS08 18.1.4"),
        ],
        ruleset="NOVUS08",
    ),
    Case(
        "novus08_18_1_1_no_own_puck_pocketed",
        [],
        S("ann"),
        [passed("NOVUS08 18.1.1")],
        ruleset="NOVUS08",
    ),
    Case("lv_16_1_1_no_own_puck_pocketed", [], S("ann"), [passed("LV 16.1.1")], ruleset="LV"),
    Case(
        "lv_16_1_2_opponent_puck_with_own",
        [],
        pot("ann", opponent_pocketed=1),
        [passed("LV 16.1.2")],
        ruleset="LV",
    ),
    Case(
        "ekml_28_1_pairs_turn_passes_clockwise",
        [S("ann")],
        S("bob"),
        [(ev.TurnPassed, {"player": "bob", "to": "amy"})],
        fmt="pairs",
    ),
]


@pytest.mark.parametrize("case", [c.param() for c in CASES])
def test_turn(case: Case) -> None:
    check(case)
