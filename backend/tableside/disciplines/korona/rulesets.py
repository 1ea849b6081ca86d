"""Per-variant data: EKML (default), NOVUS08 and LV as one table plus small overrides.

`cite` maps a rule key to the variant's paragraph. A ruleset applies its own text: where LV's
short text is silent and the guide fills the silence from EKML, the citation says so in full
("LV is silent; EKML §20(20) applied, by the guide"); what LV does not have (a forgotten debt)
is not in its table at all. Outcome tables map a judge's offence code to
its consequence: penalty (puck + loss of turn), turn (loss of turn), game, remark, match.
"""

from __future__ import annotations

from typing import Literal

import msgspec

# "noted": the ruleset forbids it in its own words and names no sanction, and its guide borrows
# none (`fill_silences: none`): recorded, with no consequence (decision 0186).
Consequence = Literal[
    "penalty", "turn", "game", "remark", "match", "removed", "disqualified", "noted"
]

SANCTION_BY_GUIDE = "; sanction: "  # "LV 13.2; sanction: EKML §24(1)10, by the guide"
NO_SANCTION = " names no sanction"  # "LV 13.2; LV names no sanction"


def names_no_sanction(rule: str) -> bool:
    """The ruleset forbids it and names no sanction, and none was borrowed (decision 0186)."""
    return rule.endswith(NO_SANCTION)


class Outcome(msgspec.Struct, frozen=True):
    consequence: Consequence
    rule: str


class Ruleset(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    zone_mm: int  # own cushion zone width
    cite: dict[str, str]
    stroke_offences: dict[str, Outcome]
    incidents: dict[str, Outcome]
    remarks: dict[str, str]
    debt_when_opponent_pockets: bool = True  # EKML §24(5)
    debt_after_turn_loss: bool = True  # implied by EKML §24(4)-(6); a setting
    debt_on_clear_in_pairs: bool = False  # EKML §24(6) "v.a. paarismängus"
    debt_forgetting: bool = True  # EKML §24(6) märkus
    stroke_side_tiebreak: bool = False  # NOVUS08 17.3, LV 15.2
    last_together_turn_loss_loses: bool = True  # EKML §27(4); NOVUS08 20.5, LV 17.2: penalty only
    restore_lock_on_any_foul: bool = False  # NOVUS08 13.6/13.8, LV 14.5
    over_restored_on_any_foul: bool = False  # NOVUS08 13.8, 17.1.16
    locked_out_loses_on_end_foul: bool = True  # EKML §23(1)1; NOVUS08 16.1.1 exempts end-phase
    knock_threshold: int = 2  # EKML §23(1)2: 2+ pucks; NOVUS08 16.1.2: any
    pairs_replay_keeps_seats: bool = False  # NOVUS08 21.1
    unsporting_needs_confirmation: bool = True  # EKML §22(4)
    slow_play_remarks_for_penalty: int = 1  # NOVUS08 17.1.18: a repeated warning
    odd_even_opening: bool = False  # NOVUS08 22.1.2
    wrong_opening_stands_after: int = (
        3  # EKML §23(1)6 märkus 1: 2nd and 3rd strokes; NOVUS08 16.1.7: 2
    )
    wrong_order_stands: bool = True  # EKML §23(1)6 märkus 2; NOVUS08 16.1.8 "even if noticed later"
    guests_open_team: bool = False  # NOVUS08 22.2


def _o(consequence: Consequence, rule: str) -> Outcome:
    return Outcome(consequence, rule)


EKML_CITE: dict[str, str] = {
    "direct_no_own": "EKML §24(1)1",
    "direct_opponent_first": "EKML §24(1)2",
    "bank_opponent_first": "EKML §24(1)3",
    "striker_pocket": "EKML §24(1)4",
    "striker_over": "EKML §24(1)5",
    "all_locked_bank_miss": "EKML §24(1)6",
    "all_locked_side_miss": "EKML §24(1)6",
    "bank_no_own": "EKML §24(1)1 (§21(5))",
    "not_punished_opposite": "EKML §24(1)6 märkus 1",
    "not_punished_side_centre": "EKML §24(1)6 märkus 2",
    "pass": "EKML §24(1)7",
    "direct_own_locked": "EKML §24(1)8",
    "side_bank_zone_first": "EKML §24(1)11",
    "moved_in_opponent_turn": "EKML §24(1)15",
    "opponent_over_foul": "EKML §24(1)16",
    "time_30s": "EKML §24(1)18",
    "legal": "EKML §21(1)",
    "no_own_pocketed": "EKML §25(1)1",
    "opponent_with_own": "EKML §25(1)2",
    "puck_over": "EKML §25(1)3",
    "zone_line": "EKML §25(1)4",
    "penalty_turn": "EKML §25(1)7",
    "another_stroke": "EKML §20(8)",
    "slow_5s": "EKML §26(4)",
    "slow_remark": "EKML §26(4)",
    "time_limit_pairs": "EKML §28(10)",
    "own_locked_restored": "EKML §21(4)",
    "opponent_locked_stays": "EKML §21(6)",
    "into_lock_restored": "EKML §21(7)",
    "into_lock_legal": "EKML §21(8)",
    "over_to_centre": "EKML §20(14)",
    "over_restored": "EKML §21(9)",
    "pairs_zone_not_restored": "EKML §28(3)",
    "pairs_centre_restored": "EKML §28(4)",
    "one_per_stroke": "EKML §24(2)",
    "placement": "EKML §24(3)",
    "debt_full": "EKML §24(4)",
    "debt_opponent_pockets": "EKML §24(5)",
    "debt_after_turn": "EKML §24(6)",
    "debt_on_clear": "EKML §24(6)",
    "debt_forgotten": "EKML §24(6) märkus",
    "debt_cap": "EKML §24(7)",
    "during_opponent": "EKML §24(8)",
    "pairs_recipient": "EKML §28(5)",
    "pairs_debt": "EKML §28(6)",
    "win": "EKML §27(3)",
    "last_together": "EKML §27(4)",
    "eight_eight": "EKML §27(5)",
    "sixteen": "EKML §28(7)",
    "eight_eight_turn_loss": "EKML §27(6)",
    "stalemate": "EKML §27(6) (teine)",
    "locked_out_2": "EKML §23(1)1",
    "table_knock": "EKML §23(1)2",
    "locked_hit_moved_2": "EKML §23(1)4",
    "knock_before_start": "EKML §20(24)",
    "wrong_opening_stands": "EKML §23(1)6 märkus 1",
    "wrong_order_stands": "EKML §23(1)6 märkus 2",
    "yellow": "EKML §9(5)",
    "yellow_repeat": "EKML §22(1)",
    "red": "EKML §22(1)",
    "third_remark": "EKML §22(5)",
    "match_end": "EKML §32(1)",
    "points": "EKML §32(2)",
    "opening_listing": "EKML §31(1)1",
    "opening_lot": "EKML §31(1)2",
    "opening_team": "EKML §31(2)",
    "opening_pairs": "EKML §31(3)",
    "side_change": "EKML §27(2)",
    "pairs_rotation": "EKML §28(1)",
    "correction": "EKML §12(3)5",
    "no_turn": "EKML §23(1)8",
    "zone_line_locked": "EKML §20(7)",
    "not_penalty_over": "EKML §24(9)",
    "remark_both": "EKML §9(11) märkus",
    "setup": "EKML §19(1)",
    "eight_eight_waiting": "EKML §27(6) märkus",
    "knock_minor": "EKML §23(1)2",
}

EKML_STROKE: dict[str, Outcome] = {
    "double_hit": _o("penalty", "EKML §24(1)9"),
    "placing_touched_puck": _o("penalty", "EKML §24(1)10"),
    "own_zone_puck_first": _o("penalty", "EKML §24(1)11"),
    "lifted_striker_early": _o("penalty", "EKML §24(1)12"),
    "touched_moving_striker": _o("penalty", "EKML §24(1)13"),
    "touched_moving_puck": _o("penalty", "EKML §24(1)13"),
    "touched_puck_handling": _o("penalty", "EKML §24(1)14"),
    "thick_end_of_cue": _o("penalty", "EKML §24(1)17"),
    "striker_broke": _o("penalty", "EKML §24(1)19"),
    "left_play_area": _o("turn", "EKML §25(1)5"),
    "disturbed_opponent": _o("turn", "EKML §25(1)5"),
    "struck_table": _o("turn", "EKML §25(1)6"),
    "placed_while_judge_busy": _o("penalty", "EKML §24(1)12 märkus (§20(17))"),
}

EKML_INCIDENTS: dict[str, Outcome] = {
    "moved_puck_in_opponent_turn": _o("penalty", "EKML §24(1)15"),
    "touched_puck_handling": _o("penalty", "EKML §24(1)14"),
    "touched_moving_puck": _o("penalty", "EKML §24(1)13"),
    "moved_pucks": _o("game", "EKML §23(1)5"),
    "ignored_stop": _o("game", "EKML §23(1)3"),
    "wrong_opening": _o("game", "EKML §23(1)6"),
    "wrong_order": _o("game", "EKML §23(1)6 märkus 2"),
    "took_puck": _o("game", "EKML §23(1)7"),
    "moved_last_puck": _o("game", "EKML §23(1)5 märkus"),
    "shot_without_right": _o("game", "EKML §23(1)8"),
    "striker_not_returned_repeatedly": _o("game", "EKML §23(1)9"),
    "changed_equipment": _o("game", "EKML §23(1)10"),
    "striker_at_side_cushion": _o("game", "EKML §20(20)"),
    "no_show": _o("match", "EKML §22(3)"),
    "unsporting": _o("match", "EKML §22(4)"),
    "handshake_refused": _o("disqualified", "EKML §22(2)"),
    "withdrew": _o("removed", "EKML §9(4)"),
}

EKML_REMARKS: dict[str, str] = {
    "striker_placed_wrongly": "EKML §26(1)1",
    "striker_not_returned": "EKML §26(1)2",
    "striker_moved_with_cue": "EKML §26(1)3",
    "object_on_cushion": "EKML §26(1)4",
    "cue_beyond_corner": "EKML §26(1)5",
    "measuring_on_cushion": "EKML §26(1)6",
    "partner_advice_after_placing": "EKML §26(1)7",
    "cleaning_board": "EKML §9(11)",
    "hands_on_board": "EKML §9(11)",
    "striker_pulled_back_far_side": "EKML §9(11) märkus",
    "slow_play": "EKML §26(4)",
}

EKML = Ruleset(
    name="EKML",
    zone_mm=120,
    cite=EKML_CITE,
    stroke_offences=EKML_STROKE,
    incidents=EKML_INCIDENTS,
    remarks=EKML_REMARKS,
)
