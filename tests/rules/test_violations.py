"""A command the rules do not allow raises RuleViolation naming the paragraph; nothing changes."""

from __future__ import annotations

import pytest
from tableside.disciplines.korona.commands import (
    AssignOpeningShot,
    CreateMatch,
    ForgetDebt,
    ReportIncident,
    ReportTimeExceeded,
    SignProtocol,
)

from .gwt import Case, S, check, pot

CASES = [
    Case("ekml_23_1_8_stroke_by_the_player_without_the_turn", [], pot("bob"), error="EKML §23(1)8"),
    Case("ekml_23_1_8_stroke_by_someone_not_in_the_match", [], pot("zed"), error="EKML §23(1)8"),
    Case(
        "novus08_stroke_without_the_turn", [], pot("bob"), error="EKML §23(1)8", ruleset="NOVUS08"
    ),
    Case("ekml_more_own_pucks_pocketed_than_on_the_board", [], pot("ann", 9), error="EKML §27(3)"),
    Case("ekml_negative_counts_refused", [], S("ann", own_over=-1), error="EKML §21(1)"),
    Case("ekml_24_6_no_debt_to_forget", [], ForgetDebt(side="A"), error="EKML §24(6)"),
    Case(
        "ekml_26_4_time_exceeded_needs_a_remark",
        [],
        ReportTimeExceeded(player="ann", limit="5s"),
        error="EKML §26(4)",
    ),
    Case(
        "ekml_26_4_time_exceeded_only_for_the_shooter",
        [],
        ReportTimeExceeded(player="bob", limit="5s"),
        error="EKML §23(1)8",
    ),
    Case(
        "ekml_opening_assigned_once", [], AssignOpeningShot(method="listing"), error="EKML §31(1)2"
    ),
    Case(
        "ekml_match_created_once",
        [],
        CreateMatch(match_id="m", side_a=("x",), side_b=("y",)),
        error="EKML §32(1)",
    ),
    Case(
        "ekml_16_12_protocol_signed_after_the_match",
        [],
        SignProtocol(judge="j"),
        error="EKML §16(12)",
    ),
    Case(
        "lv_unknown_incident_for_lv",
        [],
        ReportIncident(code="left_table_between_games", player="ann"),
        error="LV",
        ruleset="LV",
    ),
    Case(
        "ekml_no_stroke_after_the_match",
        [S("ann"), pot("bob", 8)],
        pot("ann"),
        error="EKML §23(1)8",
    ),
]


@pytest.mark.parametrize("case", [c.param() for c in CASES])
def test_violation(case: Case) -> None:
    check(case)


def test_violation_names_the_offending_field() -> None:
    from tableside.disciplines.korona import RuleViolation, decide

    from .gwt import setup

    with pytest.raises(RuleViolation) as info:
        decide(setup(), pot("ann", 9))
    assert info.value.field == "facts.own_pocketed" and "EKML" in str(info.value)
