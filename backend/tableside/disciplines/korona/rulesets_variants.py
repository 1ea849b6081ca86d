"""NOVUS08 and LV as overrides of the EKML table (see rulesets.py)."""

from __future__ import annotations

import msgspec

from tableside.disciplines.korona.rulesets import (
    EKML,
    NO_SANCTION,
    SANCTION_BY_GUIDE,
    Outcome,
    Ruleset,
    _o,
)

_N = "NOVUS08 "

NOVUS08_CITE = {
    "direct_no_own": _N + "17.1.1 (11.4.4)",
    "direct_opponent_first": _N + "17.1.2",
    "bank_opponent_first": _N + "17.1.3",
    "striker_pocket": _N + "17.1.4",
    "striker_over": _N + "17.1.5",
    "all_locked_bank_miss": _N + "17.1.6",
    "all_locked_side_miss": _N + "17.1.9",
    "bank_no_own": _N + "17.1.1 (11.4.4)",
    "not_punished_opposite": _N + "13.4",
    "not_punished_side_centre": _N + "11.4.3",
    "pass": _N + "17.1.7",
    "direct_own_locked": _N + "17.1.8",
    "side_bank_zone_first": _N + "17.1.1 (12.4)",
    "moved_in_opponent_turn": _N + "17.1.15",
    "opponent_over_foul": _N + "17.1.16",
    "time_30s": _N + "17.1.18",
    "legal": _N + "11.4",
    "no_own_pocketed": _N + "18.1.1",
    "opponent_with_own": _N + "18.1.2",
    "puck_over": _N + "18.1.3",
    "zone_line": _N + "18.1.5",
    "penalty_turn": _N + "18.1.4",
    "another_stroke": _N + "12.10",
    "slow_5s": _N + "18.1.6",
    "slow_remark": _N + "19.3",
    "time_limit_pairs": _N + "19.3",
    "own_locked_restored": _N + "17.1.8",
    "opponent_locked_stays": _N + "13.5",
    "into_lock_restored": _N + "13.6",
    "into_lock_legal": _N + "13.7",
    "over_to_centre": _N + "12.14",
    "over_restored": _N + "13.8",
    "pairs_zone_not_restored": _N + "17.1.20",
    "pairs_centre_restored": _N + "21.4",
    "one_per_stroke": _N + "17.2",
    "placement": _N + "17.3",
    "debt_full": _N + "17.4",
    "debt_after_turn": _N + "17.5",
    "debt_on_clear": _N + "17.5",
    "debt_forgotten": _N + "17.4",
    "debt_cap": _N + "17.6",
    "during_opponent": _N + "17.1.15",
    "pairs_recipient": _N + "21.5",
    "pairs_debt": _N + "21.6",
    "win": _N + "20.3",
    "last_together": _N + "20.5",
    "eight_eight": _N + "20.4",
    "sixteen": _N + "21.7",
    "stalemate": _N + "20.6",
    "locked_out_2": _N + "16.1.1",
    "table_knock": _N + "16.1.2",
    "locked_hit_moved_2": _N + "16.1.4",
    "knock_before_start": _N + "12.24",
    "wrong_opening_stands": _N + "16.1.7",
    "red": _N + "14.1",
    "no_yellow_card": _N + "19 (14.1)",
    "third_remark": _N + "19.1.11",
    "match_end": _N + "23.1",
    "opening_listing": _N + "22.1.1",
    "opening_lot": _N + "22.1.2",
    "opening_odd_even": _N + "22.1.2",
    "opening_team": _N + "22.2",
    "opening_pairs": _N + "22.3",
    "pairs_rotation": _N + "21.1",
    "correction": _N + "8.1.4",
    "zone_line_locked": _N + "12.9",
    "not_penalty_over": _N + "17.7",
    "setup": _N + "10.2",
    "side_change": _N + "20.2",
}

NOVUS08_STROKE = {
    "double_hit": _o("penalty", _N + "17.1.10"),
    "placing_touched_puck": _o("penalty", _N + "17.1.11"),
    "own_zone_puck_first": _o("penalty", _N + "17.1.1 (12.4)"),
    "lifted_striker_early": _o("penalty", _N + "17.1.12"),
    "touched_moving_striker": _o("penalty", _N + "17.1.13"),
    "touched_moving_puck": _o("game", _N + "16.1.11"),
    "touched_puck_handling": _o("penalty", _N + "17.1.14"),
    "thick_end_of_cue": _o("penalty", _N + "17.1.19"),
    "striker_broke": _o("penalty", _N + "17.1.17"),
    "left_play_area": _o("turn", _N + "18.1.5"),
    "placed_while_judge_busy": _o("turn", _N + "18.1.7"),
}

NOVUS08_INCIDENTS = {
    "moved_puck_in_opponent_turn": _o("penalty", _N + "17.1.15"),
    "touched_puck_handling": _o("penalty", _N + "17.1.14"),
    "touched_moving_puck": _o("game", _N + "16.1.11"),
    "moved_pucks": _o("game", _N + "16.1.5"),
    "ignored_stop": _o("game", _N + "16.1.3"),
    "wrong_opening": _o("game", _N + "16.1.7"),
    "wrong_order": _o("game", _N + "16.1.8"),
    "took_puck": _o("game", _N + "16.1.6"),
    "hand_in_pocket": _o("game", _N + "16.1.6"),
    "moved_last_puck": _o("game", _N + "16.1.6"),
    "changed_equipment": _o("game", _N + "16.1.9"),
    "left_table_between_games": _o("game", _N + "16.1.10"),
    "striker_at_side_cushion": _o("remark", _N + "19.1.3"),
    "no_show": _o("match", _N + "15.1"),
    "unsporting": _o("match", _N + "15.2"),
    "handshake_refused": _o("disqualified", _N + "3.5"),
    "withdrew": _o("removed", _N + "3.2"),
}

NOVUS08_REMARKS = {
    "striker_placed_wrongly": _N + "19.1.1",
    "striker_not_returned": _N + "19.1.2",
    "striker_at_side_cushion": _N + "19.1.3",
    "object_on_cushion": _N + "19.1.4",
    "cue_beyond_corner": _N + "19.1.5",
    "measuring_on_cushion": _N + "19.1.6",
    "cleaning_board": _N + "19.1.7",
    "striker_moved_with_cue": _N + "19.1.8",
    "arguing_with_judge": _N + "19.1.9",
    "talking_to_outsiders": _N + "19.1.10",
    "disturbed_opponent": _N + "19.1.10",  # "või muul viisil segab": a hoiatus, not a lost turn
    "slow_play": _N + "19.3",
}


def guide_filled(ekml_rule: str, ruleset: str = "LV") -> str:
    """A citation where `ruleset`'s text is silent and the competition's guide fills the
    silence from EKML (the guide may do so, EKML §3(4)): the event says whose text decided."""
    return f"{ruleset} is silent; {ekml_rule} applied, by the guide"


def _filled(ekml: dict[str, Outcome], own: dict[str, Outcome], ruleset: str) -> dict[str, Outcome]:
    """An outcome table: the ruleset's own outcomes, EKML's (so marked) where it is silent."""
    filled = {k: Outcome(o.consequence, guide_filled(o.rule, ruleset)) for k, o in ekml.items()}
    return {**filled, **own}


def _filled_cite(own: dict[str, str], has_not: frozenset[str], ruleset: str) -> dict[str, str]:
    """A citation table: the ruleset's paragraphs, EKML's (so marked) where it is silent,
    nothing for what it has not got at all."""
    ekml = {k: guide_filled(v, ruleset) for k, v in EKML.cite.items() if k not in has_not}
    return {**ekml, **own}


# NOVUS08 has no yellow card: its counted remark is the hoiatus (19), and 14.1 removes a
# player "ilma hoiatust tegemata" (without a warning); EKML §9(5)/§22(1) cards are not its text.
NOVUS08_HAS_NOT = frozenset(
    {
        "yellow",
        "yellow_repeat",
        "debt_opponent_pockets",  # 17.4: no EKML §24(5)
        "wrong_order_stands",  # 16.1.8: "even if noticed later"
        "remark_both",  # no such remark in 19.1
    }
)

# What NOVUS08 says otherwise than as a stroke offence: disturbing the opponent is a hoiatus
# (19.1.10), given from the remark picker, not EKML §25(1)5's loss of the turn.
NOVUS08_NOT_STROKE = frozenset({"disturbed_opponent"})

NOVUS08 = msgspec.structs.replace(
    EKML,
    name="NOVUS08",
    zone_mm=130,
    cite=_filled_cite(NOVUS08_CITE, NOVUS08_HAS_NOT, "NOVUS08"),
    stroke_offences={
        k: o
        for k, o in _filled(EKML.stroke_offences, NOVUS08_STROKE, "NOVUS08").items()
        if k not in NOVUS08_NOT_STROKE
    },
    incidents=_filled(EKML.incidents, NOVUS08_INCIDENTS, "NOVUS08"),
    remarks=NOVUS08_REMARKS,
    debt_when_opponent_pockets=False,
    debt_on_clear_in_pairs=True,
    over_restored_on_any_foul=True,
    stroke_side_tiebreak=True,
    last_together_turn_loss_loses=False,
    restore_lock_on_any_foul=True,
    locked_out_loses_on_end_foul=False,
    knock_threshold=1,
    pairs_replay_keeps_seats=True,
    unsporting_needs_confirmation=False,
    slow_play_remarks_for_penalty=2,
    odd_even_opening=True,
    wrong_opening_stands_after=2,
    wrong_order_stands=False,
    guests_open_team=True,
)

LV_CITE = {
    "direct_no_own": "LV 15.1.1 (12.4.4)",
    "direct_opponent_first": "LV 15.1.2",
    "bank_opponent_first": "LV 15.1.3",
    "striker_pocket": "LV 15.1.4",
    "striker_over": "LV 15.1.5",
    "all_locked_bank_miss": "LV 15.1.1 (12.4.4)",
    "all_locked_side_miss": "LV 15.1.1 (12.4.4)",
    "bank_no_own": "LV 15.1.1 (12.4.4)",
    "not_punished_opposite": "LV 14.3.6",
    "not_punished_side_centre": "LV 12.4.3",
    "direct_own_locked": "LV 15.1.1 (14.3)",
    "side_bank_zone_first": "LV 15.1.1 (13.2)",
    "legal": "LV 12.4",
    "no_own_pocketed": "LV 16.1.1",
    "opponent_with_own": "LV 16.1.2",
    "puck_over": "LV 16.1.3",
    "zone_line": "LV 13.7",
    "penalty_turn": "LV 16.1.8",
    "another_stroke": "LV 13.8",
    "opponent_locked_stays": "LV 14.4",
    "into_lock_restored": "LV 14.5",
    "into_lock_legal": "LV 14.5",  # only a punishable stroke's puck is put back
    "not_penalty_over": "LV 16.1.3",  # a loss of the turn, not in 15.1's penalty list
    "over_to_centre": "LV 13.9",
    "pairs_zone_not_restored": "LV 18.2",
    "pairs_centre_restored": "LV 18.2 (14.5)",  # 18.2: singles rules, but for the rear zone
    "pairs_debt": "LV 18.2 (15.3)",
    "sixteen": "LV 18.2 (17.1)",
    "placement": "LV 15.2",
    "debt_full": "LV 15.3",
    "debt_cap": "LV 15.4",
    "debt_after_turn": "LV 15.4",
    "win": "LV 17.1",
    "eight_eight": "LV 17.1",
    "last_together": "LV 17.2",
    "zone_line_locked": "LV 13.7",
    "setup": "LV 11.1",
}

LV_STROKE = {
    "own_zone_puck_first": _o("penalty", "LV 15.1.1 (13.2)"),
    "thick_end_of_cue": _o("penalty", "LV 15.1.1 (13.6)"),
}


def lv_forbids(paragraph: str, ekml_rule: str) -> str:
    """LV's text forbids it (`paragraph`) but names no sanction: the guide takes EKML's. The
    citation says LV speaks, and whose sanction was applied (decision 0186)."""
    return f"{paragraph}{SANCTION_BY_GUIDE}{ekml_rule}, by the guide"


def unsanctioned(rule: str, ruleset: str) -> str:
    """An `lv_forbids` citation without the guide's sanction: the paragraph, and that the
    ruleset names none ("LV 13.2; LV names no sanction"); "" for any other citation."""
    paragraph, borrowed, _ = rule.partition(SANCTION_BY_GUIDE)
    return f"{paragraph}; {ruleset}{NO_SANCTION}" if borrowed else ""


# LV forbids these in its own words; only the sanction is EKML's, by the guide.
LV_FORBIDS_STROKE = {"placing_touched_puck": "LV 13.2"}
LV_FORBIDS_REMARK = {"cue_beyond_corner": "LV 13.4", "hands_on_board": "LV 13.5"}


def _lv_stroke() -> dict[str, Outcome]:
    filled = _filled(EKML.stroke_offences, LV_STROKE, "LV")
    for key, paragraph in LV_FORBIDS_STROKE.items():
        o = EKML.stroke_offences[key]
        filled[key] = Outcome(o.consequence, lv_forbids(paragraph, o.rule))
    return filled


def _lv_remarks() -> dict[str, str]:
    return {
        k: lv_forbids(LV_FORBIDS_REMARK[k], v) if k in LV_FORBIDS_REMARK else guide_filled(v)
        for k, v in EKML.remarks.items()
    }


# What the LV text does not have at all: offered neither by the engine nor by the pad.
LV_HAS_NOT = frozenset({"debt_forgotten", "debt_opponent_pockets"})


LV = msgspec.structs.replace(
    EKML,
    name="LV",
    zone_mm=120,
    cite=_filled_cite(LV_CITE, LV_HAS_NOT, "LV"),
    stroke_offences=_lv_stroke(),
    incidents=_filled(EKML.incidents, {}, "LV"),
    remarks=_lv_remarks(),
    debt_when_opponent_pockets=False,
    debt_forgetting=False,
    debt_on_clear_in_pairs=True,
    stroke_side_tiebreak=True,
    last_together_turn_loss_loses=False,
    restore_lock_on_any_foul=True,
)

RULESETS: dict[str, Ruleset] = {"EKML": EKML, "NOVUS08": NOVUS08, "LV": LV}

# What the engine does by itself from a stroke's facts under these keys (a foul, a game loss):
# where the silence is left unfilled, the situation is no offence (stroke.py asks for the key).
# The sanctions a judge's report would borrow go too: a tactical pass (EKML §24(1)7) earns no
# penalty puck and no card is offered where the ruleset's text has none.
_APPLIED_BY_ITSELF = frozenset(
    {
        "opponent_over_foul",
        "pairs_centre_restored",
        "locked_out_2",
        "locked_hit_moved_2",
        "pass",
        "yellow",
        "yellow_repeat",
        "red",
    }
)


def _own_text(rs: Ruleset) -> Ruleset:
    """`rs` with its silences left unfilled (the guide's `fill_silences: none`): no EKML
    offence, incident or remark is offered (a report of one is refused: not in this ruleset),
    what the engine would decide by itself under an EKML paragraph is not decided, and the
    procedure it still needs (the opening, the rotation, the match's end, corrections) cites
    `LV is silent` without borrowing a paragraph. What the ruleset forbids in its own words
    without a sanction stays recordable, with none (`noted`: LV 13.2, 13.4, 13.5)."""
    own = lambda rule: f"{rs.name} is silent" not in rule and " by the guide" not in rule  # noqa: E731
    silent = f"{rs.name} is silent"
    noted = lambda rule: unsanctioned(rule, rs.name)  # noqa: E731
    offences = {k: Outcome("noted", noted(o.rule)) for k, o in rs.stroke_offences.items()}
    remarks = {k: noted(v) for k, v in rs.remarks.items()}
    return msgspec.structs.replace(
        rs,
        cite={
            k: v if own(v) else silent
            for k, v in rs.cite.items()
            if own(v) or k not in _APPLIED_BY_ITSELF
        },
        stroke_offences={
            **{k: o for k, o in offences.items() if o.rule},
            **{k: o for k, o in rs.stroke_offences.items() if own(o.rule)},
        },
        incidents={k: o for k, o in rs.incidents.items() if own(o.rule)},
        remarks={
            **{k: v for k, v in remarks.items() if v},
            **{k: v for k, v in rs.remarks.items() if own(v)},
        },
    )


UNFILLED: dict[str, Ruleset] = {"EKML": EKML, "NOVUS08": _own_text(NOVUS08), "LV": _own_text(LV)}


def ruleset_for(name: str, fill_silences: str = "ekml") -> Ruleset:
    """The ruleset a match plays: LV's/NOVUS08's silences filled from EKML where its guide
    says so (`ekml`, the default), left unfilled where it says `none`; EKML is silent on
    nothing it cites."""
    return (RULESETS if fill_silences == "ekml" else UNFILLED)[name]
