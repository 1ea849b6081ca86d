"""LV and NOVUS08 in their own words (issue 43 point 4): a key is "silent" only where the
seed text is (shared/seeds/003 for LV, 001 for NOVUS08), and with the guide's
`fill_silences: none` the engine applies nothing that the ruleset's text does not say."""

from __future__ import annotations

import pytest
from tableside.disciplines.korona import RuleViolation, decide
from tableside.disciplines.korona import events as ev
from tableside.disciplines.korona.commands import (
    AssignOpeningShot,
    CreateMatch,
    DeclineTurn,
    GiveRemark,
    GiveWarning,
    RecordStroke,
    ReportIncident,
    StrokeFacts,
)
from tableside.disciplines.korona.rulesets_variants import LV, NOVUS08, UNFILLED
from tableside.disciplines.korona.state import initial_state

from .gwt import PAIRS, S, given, setup


def _unfilled(ruleset: str, fmt: str = "singles"):
    a, b = PAIRS if fmt == "pairs" else (("ann",), ("bob",))
    create = CreateMatch(
        match_id="m", side_a=a, side_b=b, ruleset=ruleset, fmt=fmt, fill_silences="none"
    )
    return given(initial_state(), [create, AssignOpeningShot(method="lot", lot_winner="A")])


def _rules(events: list, kind: type) -> list[str]:
    return [e.rule for e in events if type(e) is kind]


def test_novus08_19_1_10_disturbing_the_opponent_is_a_hoiatus_not_a_lost_turn() -> None:
    """19.1.10: "... või muul viisil segab" — a hoiatus (the counted remark), not EKML
    §25(1)5's loss of the turn."""
    assert NOVUS08.remarks["disturbed_opponent"] == "NOVUS08 19.1.10"
    assert "disturbed_opponent" not in NOVUS08.stroke_offences
    state = given(setup("NOVUS08"), [S("ann")])
    events = decide(state, GiveRemark(player="bob", reason="disturbed_opponent"))
    assert _rules(events, ev.RemarkGiven) == ["NOVUS08 19.1.10"]
    assert not [e for e in events if type(e) is ev.TurnPassed]
    with pytest.raises(RuleViolation) as refused:  # no longer an EKML stroke offence
        decide(
            state, RecordStroke(player="bob", facts=StrokeFacts(offences=("disturbed_opponent",)))
        )
    assert refused.value.code == "not_in_ruleset"


def test_lv_13_2_a_striker_touching_a_puck_while_placed_cites_lv_13_2() -> None:
    """13.2: "Noliekot ripu, ar to nedrīkst skart nevienu kauliņu" — LV's prohibition; only
    the sanction is EKML §24(1)10, by the guide."""
    rule = "LV 13.2; LV is silent; EKML §24(1)10 applied, by the guide"
    assert LV.stroke_offences["placing_touched_puck"].rule == rule
    events = decide(setup("LV"), S("ann", offences=("placing_touched_puck",)))
    assert any(r.startswith("LV 13.2") for r in _rules(events, ev.FoulCommitted))
    assert "placing_touched_puck" not in UNFILLED["LV"].stroke_offences


@pytest.mark.parametrize(
    ("paragraph", "reason", "ekml"),
    [
        ("LV 13.4", "cue_beyond_corner", "EKML §26(1)5"),
        ("LV 13.5", "hands_on_board", "EKML §9(11)"),
    ],
    ids=["lv_13_4_cue_over_the_cushion_corner", "lv_13_5_fingers_on_the_board"],
)
def test_lv_13_4_and_13_5_remarks_cite_lvs_own_prohibition(
    paragraph: str, reason: str, ekml: str
) -> None:
    """13.4 (the cue must not hide the cushion's inner corner), 13.5 (the supporting hand's
    fingers touch only the cushion): LV forbids; the remark is EKML's, by the guide."""
    events = decide(given(setup("LV"), [S("ann")]), GiveRemark(player="bob", reason=reason))
    assert _rules(events, ev.RemarkGiven) == [
        f"{paragraph}; LV is silent; {ekml} applied, by the guide"
    ]
    assert reason not in UNFILLED["LV"].remarks  # LV names no remark of its own


def test_lv_14_5_a_foul_stroke_drives_a_puck_into_the_dark_zone_restored_by_lv_14_5() -> None:
    """14.5: in singles, a punishable stroke's opponent puck driven into the dark zone is put
    back and the player punished; a correct stroke's stays (the same paragraph, a contrario)."""
    foul = decide(setup("LV"), S("ann", first_contact="opponent", opponent_into_zone=1))
    assert _rules(foul, ev.PucksRestored) == ["LV 14.5"]
    legal = decide(setup("LV"), S("ann", opponent_into_zone=1))
    assert _rules(legal, ev.OpponentPucksLeft) == ["LV 14.5"]


def test_lv_18_2_pairs_centre_puck_restored_under_the_singles_rule_lv_14_5() -> None:
    """18.2: every singles rule applies to doubles except the rear zone (penalty only)."""
    events = decide(setup("LV", "pairs"), S("ann", opponent_into_centre=1))
    assert _rules(events, ev.PucksRestored) == ["LV 18.2 (14.5)"]
    assert LV.cite["pairs_debt"] == "LV 18.2 (15.3)" and LV.cite["sixteen"] == "LV 18.2 (17.1)"


def test_lv_16_1_3_a_puck_over_the_cushion_is_no_penalty_puck() -> None:
    assert LV.cite["not_penalty_over"] == "LV 16.1.3"


def test_lv_unfilled_tactical_pass_records_no_penalty() -> None:
    """`fill_silences: none`: LV has no tactical-pass rule (EKML §24(1)7), so the pass is
    recorded and the turn passes, with no foul, no penalty puck and no card."""
    events = decide(_unfilled("LV"), DeclineTurn(player="ann"))
    kinds = [type(e) for e in events]
    assert ev.FoulCommitted not in kinds and ev.PenaltyAwarded not in kinds
    assert ev.WarningGiven not in kinds
    passed = next(e for e in events if type(e) is ev.TurnPassed)
    assert passed.to == "bob" and passed.rule == "LV is silent"
    # with the guide's fill the same pass is EKML's, and says so
    filled = decide(setup("LV"), DeclineTurn(player="ann"))
    assert _rules(filled, ev.FoulCommitted) == ["LV is silent; EKML §24(1)7 applied, by the guide"]


def test_lv_unfilled_has_no_card_to_give() -> None:
    state = given(_unfilled("LV"), [S("ann")])
    for card in ("yellow", "red"):
        with pytest.raises(RuleViolation) as refused:
            decide(state, GiveWarning(player="bob", card=card))
        assert refused.value.code == "not_in_ruleset" and "EKML" not in refused.value.rule


def test_ekml_22_3_a_no_show_after_play_began_is_refused_with_a_code() -> None:
    """The pad's refusal reads in the judge's language: the engine names a code."""
    with pytest.raises(RuleViolation) as refused:
        decide(given(setup(), [S("ann")]), ReportIncident(code="no_show", player="bob"))
    assert refused.value.rule == "EKML §22(3)"
    assert refused.value.code == "no_show_before_first_game"
