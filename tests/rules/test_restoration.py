"""Which pucks are put back (EKML §20(14), §21(4)-(9); NOVUS08 13.5-13.8; LV 14.4-14.5)."""

from __future__ import annotations

import pytest
from tableside.disciplines.korona import events as ev

from .gwt import Case, S, check, pot

NO_OPEN = {"own_open_before": False, "own_locked_before": True}
BANK_NO_OPEN = {"kind": "bank_opposite", "first_contact": "opponent", **NO_OPEN}
FOUL_BANK = {"kind": "bank_opposite", "first_contact": "opponent"}

CASES = [
    Case(
        "ekml_21_4_own_locked_puck_knocked_out_is_put_back",
        [pot("ann", 2), pot("ann")],
        S(
            "ann",
            first_contact="own_locked_zone",
            own_locked_out=1,
            own_pocketed=1,
            own_locked_out_pocketed=1,
        ),
        [
            (ev.FoulCommitted, {"rule": "EKML §24(1)8"}),
            (ev.PucksRestored, {"side": "A", "from_pocket": 1, "rule": "EKML §21(4)"}),
        ],
    ),
    Case(
        "ekml_21_6_opponents_locked_puck_stays_where_it_went",
        [],
        S("ann", first_contact="opponent", opponent_locked_out=1),
        [
            (ev.FoulCommitted, {"rule": "EKML §24(1)2"}),
            (ev.OpponentPucksLeft, {"side": "B", "rule": "EKML §21(6)"}),
        ],
    ),
    Case(
        "ekml_21_7_opponent_driven_into_lock_by_direct_stroke_put_back",
        [],
        S("ann", first_contact="opponent", opponent_into_centre=1),
        [
            (ev.PucksRestored, {"side": "B", "what": "into_lock", "rule": "EKML §21(7)"}),
            (ev.PenaltyAwarded, {}),
        ],
    ),
    Case(
        "ekml_21_7_only_a_direct_stroke_restores",
        [],
        S("ann", opponent_into_zone=1, **FOUL_BANK),
        [(ev.OpponentPucksLeft, {"rule": "EKML §21(8)"})],
        absent=(ev.PucksRestored,),
    ),
    Case(
        "ekml_21_8_1_bank_without_open_puck_drives_into_lock_not_restored",
        [],
        S("ann", opponent_into_zone=1, **BANK_NO_OPEN),
        [(ev.OpponentPucksLeft, {"rule": "EKML §21(8)"})],
        absent=(ev.PenaltyAwarded,),
    ),
    Case(
        "ekml_21_8_not_restored_even_when_the_correct_stroke_is_penalised",
        [],
        S("ann", opponent_into_zone=1, striker="pocket", **BANK_NO_OPEN),
        [(ev.OpponentPucksLeft, {"rule": "EKML §21(8)"}), (ev.PenaltyAwarded, {"rule": "§24(1)4"})],
        absent=(ev.PucksRestored,),
    ),
    Case(
        "ekml_21_9_opponent_pucks_over_after_foul_direct_hit_put_back",
        [],
        S("ann", first_contact="own_and_opponent", opponent_over=2),
        [(ev.PucksRestored, {"side": "B", "count": 2, "rule": "EKML §21(9)"})],
    ),
    Case(
        "ekml_20_14_over_the_cushion_to_the_centre_circle",
        [],
        pot("ann", opponent_over=1, own_over=1, over_first_touched="B"),
        [
            (ev.PucksToCentre, {"side": "B", "first_touched": True, "rule": "EKML §20(14)"}),
            (ev.PucksToCentre, {"side": "A", "first_touched": False}),
        ],
    ),
    Case(
        "novus08_13_6_foul_stroke_into_dark_zone_put_back",
        [],
        S("ann", opponent_into_zone=1, **FOUL_BANK),
        [(ev.PucksRestored, {"rule": "NOVUS08 13.6"})],
        ruleset="NOVUS08",
    ),
    Case(
        "novus08_13_8_any_foul_stroke_over_the_cushion_put_back",
        [],
        S("ann", opponent_over=1, **FOUL_BANK),
        [
            (ev.FoulCommitted, {"rule": "NOVUS08 17.1.16"}),
            (ev.PucksRestored, {"rule": "NOVUS08 13.8"}),
        ],
        ruleset="NOVUS08",
    ),
    Case(
        "novus08_13_5_opponents_locked_puck_stays",
        [],
        S("ann", first_contact="opponent", opponent_locked_out=1),
        [(ev.OpponentPucksLeft, {"rule": "NOVUS08 13.5"})],
        ruleset="NOVUS08",
    ),
    Case(
        "lv_14_5_foul_stroke_into_dark_zone_put_back",
        [],
        S("ann", opponent_into_centre=1, **FOUL_BANK),
        [(ev.PucksRestored, {"rule": "LV 14.5"})],
        ruleset="LV",
    ),
    Case(
        "lv_13_9_over_the_cushion_to_the_centre",
        [],
        pot("ann", own_over=1),
        [(ev.PucksToCentre, {"rule": "LV 13.9"})],
        ruleset="LV",
    ),
]


@pytest.mark.parametrize("case", [c.param() for c in CASES])
def test_restoration(case: Case) -> None:
    check(case)
