"""Remarks, the third remark and slow play (EKML §26, §9(11), §22(5), §28(9)-(10); NOVUS08 19)."""

from __future__ import annotations

import pytest
from tableside.disciplines.korona import events as ev
from tableside.disciplines.korona.commands import GiveRemark

from .gwt import Case, check, pot


def remark(player: str, reason: str) -> GiveRemark:
    return GiveRemark(player=player, reason=reason)


def given_rule(rule: str, **more: object) -> list:
    return [(ev.RemarkGiven, {"rule": rule, **more})]


EKML_REASONS = [
    ("1", "striker_placed_wrongly"),
    ("2", "striker_not_returned"),
    ("3", "striker_moved_with_cue"),
    ("4", "object_on_cushion"),
    ("5", "cue_beyond_corner"),
    ("6", "measuring_on_cushion"),
]
NOVUS_REASONS = [
    ("1", "striker_placed_wrongly"),
    ("2", "striker_not_returned"),
    ("3", "striker_at_side_cushion"),
    ("4", "object_on_cushion"),
    ("5", "cue_beyond_corner"),
    ("6", "measuring_on_cushion"),
    ("7", "cleaning_board"),
    ("8", "striker_moved_with_cue"),
    ("9", "arguing_with_judge"),
    ("10", "talking_to_outsiders"),
]
TWO = [remark("ann", "object_on_cushion"), remark("ann", "cue_beyond_corner")]

CASES = [
    *[
        Case(
            f"ekml_26_1_{n}_{reason}",
            [],
            remark("ann", reason),
            given_rule(f"EKML §26(1){n}", count=1),
        )
        for n, reason in EKML_REASONS
    ],
    Case(
        "ekml_26_1_7_partner_advice_after_the_striker_is_placed",
        [],
        remark("amy", "partner_advice_after_placing"),
        given_rule("EKML §26(1)7", side="A"),
        fmt="pairs",
    ),
    Case(
        "ekml_26_1_7_advice_needs_a_pair",
        [],
        remark("ann", "partner_advice_after_placing"),
        error="EKML §26(1)7",
    ),
    Case(
        "ekml_9_11_cleaning_the_board",
        [],
        remark("bob", "cleaning_board"),
        given_rule("EKML §9(11)"),
    ),
    Case(
        "ekml_9_11_note_pulling_the_striker_back_a_remark_for_both",
        [],
        remark("bob", "striker_pulled_back_far_side"),
        [(ev.RemarkGiven, {"player": "bob"}), (ev.RemarkGiven, {"player": "ann", "side": "A"})],
    ),
    Case(
        "ekml_arguing_is_not_an_ekml_remark_reason",
        [],
        remark("ann", "arguing_with_judge"),
        error="EKML",
    ),
    *[
        Case(
            f"novus08_19_1_{n}_{reason}",
            [],
            remark("ann", reason),
            given_rule(f"NOVUS08 19.1.{n}"),
            ruleset="NOVUS08",
        )
        for n, reason in NOVUS_REASONS
    ],
    Case(
        "ekml_26_2_third_remark_loses_current_and_remaining_games",
        [pot("ann"), *TWO],
        remark("ann", "measuring_on_cushion"),
        [
            (ev.RemarkGiven, {"count": 3}),
            (ev.GameEnded, {"winner": "B", "reason": "third_remark", "rule": "EKML §22(5)"}),
            (ev.RemainingGamesLost, {"side": "A", "games": 3}),
            (ev.MatchEnded, {"winner": "B", "games_a": 0, "games_b": 4}),
        ],
        games=4,
    ),
    Case(
        "ekml_22_5_a_pair_counts_jointly",
        [remark("ann", "object_on_cushion"), remark("amy", "cue_beyond_corner")],
        remark("ann", "measuring_on_cushion"),
        [(ev.MatchEnded, {"winner": "B"})],
        fmt="pairs",
    ),
    Case(
        "ekml_22_5_two_remarks_do_not_end_anything",
        [remark("ann", "object_on_cushion")],
        remark("ann", "cue_beyond_corner"),
        given_rule("EKML §26(1)5", count=2),
        absent=(ev.GameEnded, ev.MatchEnded),
    ),
    Case(
        "novus08_19_1_11_third_warning_loses_current_and_unplayed_sets",
        TWO,
        remark("ann", "arguing_with_judge"),
        [(ev.GameEnded, {"rule": "NOVUS08 19.1.11"}), (ev.RemainingGamesLost, {"games": 1})],
        ruleset="NOVUS08",
        games=2,
    ),
    Case(
        "ekml_26_4_slow_play_remark_imposes_the_30_s_limit",
        [],
        remark("ann", "slow_play"),
        [
            (ev.RemarkGiven, {"reason": "slow_play"}),
            (ev.TimeLimitImposed, {"side": "A", "rule": "EKML §26(4)"}),
        ],
    ),
    Case(
        "ekml_28_10_pairs_time_limit_for_both_partners",
        [],
        remark("amy", "slow_play"),
        [(ev.TimeLimitImposed, {"side": "A", "rule": "EKML §28(10)"})],
        fmt="pairs",
    ),
    Case(
        "novus08_19_3_slow_play_warning",
        [],
        remark("ann", "slow_play"),
        [(ev.TimeLimitImposed, {"rule": "NOVUS08 19.3"})],
        ruleset="NOVUS08",
    ),
]


@pytest.mark.parametrize("case", [c.param() for c in CASES])
def test_remark(case: Case) -> None:
    check(case)
