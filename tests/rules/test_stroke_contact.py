"""First contact decides a correct stroke (EKML §21, §24(1)1-3, 6, 8, 11; NOVUS08 11.4; LV 12.4)."""

from __future__ import annotations

import pytest
from tableside.disciplines.korona import events as ev

from .gwt import Case, S, check, pot

PEN = (ev.PenaltyAwarded, {})
LEGAL = (ev.PenaltyAwarded,)


def foul(code: str, rule: str) -> tuple:
    return (ev.FoulCommitted, {"code": code, "rule": rule})


def legal(rule: str) -> tuple:
    return (ev.StrokeRecorded, {"legal": True, "rule": rule})


NO_OPEN = {"own_open_before": False, "own_locked_before": True}

CASES = [
    Case("ekml_21_1_correct_direct_stroke", [], pot("ann"), [legal("EKML §21(1)")], absent=LEGAL),
    Case(
        "ekml_24_1_1_direct_touches_no_own_open_puck",
        [],
        S("ann", first_contact="none"),
        [foul("direct_no_own", "EKML §24(1)1"), PEN],
    ),
    Case(
        "ekml_24_1_2_direct_opponent_first",
        [],
        S("ann", first_contact="opponent"),
        [foul("direct_opponent_first", "EKML §24(1)2"), PEN],
    ),
    Case(
        "ekml_24_1_2_own_and_opponent_at_once",
        [],
        S("ann", first_contact="own_and_opponent"),
        [foul("direct_opponent_first", "EKML §24(1)2"), PEN],
    ),
    Case(
        "ekml_24_1_3_bank_opposite_opponent_first_with_open_puck",
        [],
        S("ann", kind="bank_opposite", first_contact="opponent"),
        [foul("bank_opponent_first", "EKML §24(1)3"), PEN],
    ),
    Case(
        "ekml_21_8_1_bank_opposite_opponent_first_without_open_puck",
        [],
        S("ann", kind="bank_opposite", first_contact="opponent", **NO_OPEN),
        [legal("EKML §21(1)")],
        absent=LEGAL,
    ),
    Case(
        "ekml_21_5_bank_touches_no_own_puck_with_open_pucks",
        [],
        S("ann", kind="bank_opposite", first_contact="none"),
        [foul("bank_no_own", "EKML §24(1)1"), PEN],
    ),
    Case(
        "ekml_24_1_6_all_locked_side_bank_misses",
        [],
        S("ann", kind="bank_side", first_contact="opponent", **NO_OPEN),
        [foul("all_locked_side_miss", "EKML §24(1)6"), PEN],
    ),
    Case(
        "ekml_24_1_6_all_locked_bank_misses_opposite_cushion",
        [],
        S("ann", first_contact="none", **NO_OPEN),
        [foul("all_locked_bank_miss", "EKML §24(1)6"), PEN],
    ),
    Case(
        "ekml_24_1_6_note1_bank_opposite_touching_nothing_not_punished",
        [],
        S("ann", kind="bank_opposite", first_contact="none", **NO_OPEN),
        [legal("EKML §24(1)6 märkus 1")],
        absent=LEGAL,
    ),
    Case(
        "ekml_24_1_6_note2_side_bank_own_locked_centre_not_punished",
        [],
        S("ann", kind="bank_side", first_contact="own_locked_centre", **NO_OPEN),
        [legal("EKML §24(1)6 märkus 2")],
        absent=LEGAL,
    ),
    Case(
        "ekml_24_1_8_direct_at_own_locked_puck",
        [],
        S("ann", first_contact="own_locked_zone"),
        [foul("direct_own_locked", "EKML §24(1)8"), PEN],
    ),
    Case(
        "ekml_24_1_11_side_bank_first_touches_own_zone_puck",
        [],
        S("ann", kind="bank_side", first_contact="own_locked_zone"),
        [foul("side_bank_zone_first", "EKML §24(1)11"), PEN],
    ),
    Case(
        "ekml_24_1_11_judge_sees_own_zone_puck_first",
        [],
        pot("ann", offences=("own_zone_puck_first",)),
        [foul("own_zone_puck_first", "EKML §24(1)11"), PEN],
    ),
    Case(
        "ekml_21_1_direct_stroke_cannot_begin_at_a_cushion",
        [],
        S("ann", first_contact="opposite_cushion"),
        error="EKML §21(1)",
    ),
    Case(
        "novus08_11_4_3_side_bank_to_own_centre_puck_correct",
        [],
        S("ann", kind="bank_side", first_contact="own_locked_centre", **NO_OPEN),
        [legal("NOVUS08 11.4.3")],
        absent=LEGAL,
        ruleset="NOVUS08",
    ),
    Case(
        "novus08_13_4_bank_opposite_touching_nothing_not_punished",
        [],
        S("ann", kind="bank_opposite", first_contact="none", **NO_OPEN),
        [legal("NOVUS08 13.4")],
        absent=LEGAL,
        ruleset="NOVUS08",
    ),
    Case(
        "novus08_17_1_9_side_bank_misses_centre_and_cushion",
        [],
        S("ann", kind="bank_side", first_contact="none", **NO_OPEN),
        [foul("all_locked_side_miss", "NOVUS08 17.1.9"), PEN],
        ruleset="NOVUS08",
    ),
    Case(
        "novus08_17_1_2_direct_opponent_first",
        [],
        S("ann", first_contact="opponent"),
        [foul("direct_opponent_first", "NOVUS08 17.1.2"), PEN],
        ruleset="NOVUS08",
    ),
    Case(
        "novus08_17_1_8_direct_at_own_locked_puck",
        [],
        S("ann", first_contact="own_locked_centre"),
        [foul("direct_own_locked", "NOVUS08 17.1.8"), PEN],
        ruleset="NOVUS08",
    ),
    Case(
        "lv_14_3_6_bank_opposite_touching_nothing_not_punished",
        [],
        S("ann", kind="bank_opposite", first_contact="none", **NO_OPEN),
        [legal("LV 14.3.6")],
        absent=LEGAL,
        ruleset="LV",
    ),
    Case(
        "lv_15_1_2_direct_opponent_first",
        [],
        S("ann", first_contact="opponent"),
        [foul("direct_opponent_first", "LV 15.1.2"), PEN],
        ruleset="LV",
    ),
    Case(
        "lv_15_1_3_bank_opponent_first_with_open_puck",
        [],
        S("ann", kind="bank_opposite", first_contact="opponent"),
        [foul("bank_opponent_first", "LV 15.1.3"), PEN],
        ruleset="LV",
    ),
    Case(
        "lv_12_4_4_direct_at_own_dark_puck",
        [],
        S("ann", first_contact="own_locked_zone"),
        [foul("direct_own_locked", "LV 15.1.1 (14.3)"), PEN],
        ruleset="LV",
    ),
]


@pytest.mark.parametrize("case", [c.param() for c in CASES])
def test_contact(case: Case) -> None:
    check(case)
