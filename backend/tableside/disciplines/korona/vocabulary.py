"""Closed word lists shared by commands, events and state (JSON strings, validated by msgspec)."""

from __future__ import annotations

from typing import Literal

RulesetName = Literal["EKML", "NOVUS08", "LV"]
Format = Literal["singles", "pairs"]
# Where LV or NOVUS08 is silent, the guide fills the silence from EKML or leaves it (issue 35).
FillSilences = Literal["ekml", "none"]
Side = Literal["A", "B"]
SideOrNone = Literal["A", "B", ""]

# How the stroke began: the striker first touches a puck, the opposite cushion, or a side cushion.
StrokeKind = Literal["direct", "bank_opposite", "bank_side"]

# The first thing the striker touched (after the cushion for a bank stroke). "Own" means the
# pair's pucks in pairs. Locked = in the shooter's dark zone (own cushion zone or centre circle).
Contact = Literal[
    "own_open",
    "own_locked_zone",
    "own_locked_centre",
    "opponent",
    "own_and_opponent",
    "opposite_cushion",
    "none",
]
StrikerEnd = Literal["board", "pocket", "over"]
Spot = Literal["centre_line", "left", "right"]
Nearer = Literal["equal", "left", "right"]
Card = Literal["yellow", "red"]
Limit = Literal["5s", "30s"]
OpeningMethod = Literal["listing", "lot", "odd_even", "team"]
# How a match's game 1 opening is decided, from its competition's guide (EKML §31(1)): the
# first-listed opens (a round robin), the lot (coin toss) decides (Swiss, brackets, or a guide
# that says so); "" leaves it to the table (a walk-up match, a team match's boards).
OpeningRule = Literal["", "listing", "lot"]
CorrectionBy = Literal["head_judge", "table_judge"]

# Offences a judge sees during a stroke; each ruleset maps a code to a consequence + paragraph.
StrokeOffence = Literal[
    "double_hit",
    "placing_touched_puck",
    "own_zone_puck_first",
    "lifted_striker_early",
    "touched_moving_striker",
    "touched_moving_puck",
    "touched_puck_handling",
    "thick_end_of_cue",
    "striker_broke",
    "left_play_area",
    "disturbed_opponent",
    "struck_table",
    "placed_while_judge_busy",
]

# Incidents outside a stroke (ReportIncident.code).
IncidentCode = Literal[
    "moved_puck_in_opponent_turn",
    "touched_puck_handling",
    "moved_pucks",
    "took_puck",
    "hand_in_pocket",
    "moved_last_puck",
    "ignored_stop",
    "wrong_opening",
    "shot_without_right",
    "wrong_order",
    "striker_not_returned_repeatedly",
    "changed_equipment",
    "striker_at_side_cushion",
    "left_table_between_games",
    "touched_moving_puck",
    "no_show",
    "handshake_refused",
    "unsporting",
    "withdrew",
]

RemarkReason = Literal[
    "striker_placed_wrongly",
    "striker_not_returned",
    "striker_moved_with_cue",
    "object_on_cushion",
    "cue_beyond_corner",
    "measuring_on_cushion",
    "partner_advice_after_placing",
    "cleaning_board",
    "hands_on_board",
    "striker_pulled_back_far_side",
    "striker_at_side_cushion",
    "arguing_with_judge",
    "talking_to_outsiders",
    "disturbed_opponent",
    "slow_play",
]

SIDES: tuple[Side, Side] = ("A", "B")


def other(side: str) -> Side:
    """The opposing side."""
    return "B" if side == "A" else "A"


def index(side: str) -> int:
    """0 for side A, 1 for side B (state keeps per-side pairs as 2-tuples)."""
    return 0 if side == "A" else 1
