"""LV and NOVUS08 in their own words (issue 43 point 4): a key is "silent" only where the
seed text is (shared/seeds/003 for LV, 001 for NOVUS08), and with the guide's
`fill_silences: none` the engine applies nothing that the ruleset's text does not say."""

from __future__ import annotations

import re

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
from tableside.disciplines.korona.rulesets import Outcome
from tableside.disciplines.korona.rulesets_variants import LV, NOVUS08, UNFILLED
from tableside.disciplines.korona.state import initial_state
from tableside.match.exports.labels import citation

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
    """13.2: "Noliekot ripu, ar to nedrīkst skart nevienu kauliņu" — LV speaks: the citation
    is LV's paragraph, and only the sanction is EKML §24(1)10, by the guide (never "LV is
    silent", decision 0186)."""
    rule = "LV 13.2; sanction: EKML §24(1)10, by the guide"
    assert LV.stroke_offences["placing_touched_puck"].rule == rule
    events = decide(setup("LV"), S("ann", offences=("placing_touched_puck",)))
    assert _rules(events, ev.FoulCommitted) == [rule]
    assert "is silent" not in rule
    assert citation("lv", rule) == "LV 13.2; sods: EKML §24(1)10 pēc nolikuma"
    assert citation("et", rule) == "LV 13.2; karistus: EKML §24(1)10, juhendi järgi"


def test_lv_13_2_unfilled_a_placing_foul_is_recorded_with_no_sanction() -> None:
    """`fill_silences: none`: LV 13.2 still forbids it, so the judge records it; LV names no
    sanction, so no penalty puck and no loss of the turn beyond the stroke's own."""
    outcome = UNFILLED["LV"].stroke_offences["placing_touched_puck"]
    assert outcome == Outcome("noted", "LV 13.2; LV names no sanction")
    events = decide(_unfilled("LV"), S("ann", own_pocketed=1, offences=("placing_touched_puck",)))
    assert _rules(events, ev.OffenceDisregarded) == ["LV 13.2; LV names no sanction"]
    kinds = {type(e) for e in events}
    assert ev.FoulCommitted not in kinds and ev.PenaltyAwarded not in kinds, events
    assert ev.TurnKept in kinds  # a pocketed puck and no offence LV sanctions: he goes on
    assert citation("lv", outcome.rule) == "LV 13.2; LV noteikumi sodu nenosaka"


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
    assert _rules(events, ev.RemarkGiven) == [f"{paragraph}; sanction: {ekml}, by the guide"]


@pytest.mark.parametrize(
    ("paragraph", "reason"),
    [("LV 13.4", "cue_beyond_corner"), ("LV 13.5", "hands_on_board")],
    ids=["lv_13_4_unfilled", "lv_13_5_unfilled"],
)
def test_lv_13_4_and_13_5_unfilled_recorded_not_counted(paragraph: str, reason: str) -> None:
    """`none`: the remark list holds LV's own prohibitions; one is recorded with LV's
    paragraph and no sanction: no remark counts towards a third (EKML §22(5) is not LV's)."""
    rule = f"{paragraph}; LV names no sanction"
    assert UNFILLED["LV"].remarks[reason] == rule
    state = given(_unfilled("LV"), [S("ann")])
    for _ in range(3):
        events = decide(state, GiveRemark(player="bob", reason=reason))
        state = given(state, [GiveRemark(player="bob", reason=reason)])
        assert _rules(events, ev.OffenceDisregarded) == [rule]
        assert not [e for e in events if type(e) in (ev.RemarkGiven, ev.MatchEnded)], events
    assert state.remarks == (0, 0) and not state.ended


def test_lv_14_5_a_foul_stroke_drives_a_puck_into_the_dark_zone_restored_by_lv_14_5() -> None:
    """14.5: in singles, a punishable stroke's opponent puck driven into the dark zone is put
    back and the player punished; a correct stroke's stays (the same paragraph, a contrario)."""
    foul = decide(setup("LV"), S("ann", first_contact="opponent", opponent_into_zone=1))
    assert _rules(foul, ev.PucksRestored) == ["LV 14.5"]
    legal = decide(setup("LV"), S("ann", opponent_into_zone=1))
    assert _rules(legal, ev.OpponentPucksLeft) == ["LV 14.5"]


def test_lv_18_2_pairs_centre_puck_restored_under_the_singles_rule_lv_14_5() -> None:
    """18.2: every singles rule applies to doubles except the rear zone (penalty only): a
    punishable stroke's puck driven into the centre goes back (14.5), a correct one's stays."""
    foul = S("ann", first_contact="opponent", opponent_into_centre=1)
    events = decide(setup("LV", "pairs"), foul)
    assert _rules(events, ev.PucksRestored) == ["LV 18.2 (14.5)"]
    legal = decide(setup("LV", "pairs"), S("ann", opponent_into_centre=1))
    assert _rules(legal, ev.OpponentPucksLeft) == ["LV 14.5"]
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


# Every numbered paragraph of the seed texts (shared/seeds/003 LV, 001 NOVUS08), transcribed:
# the seeds are not shipped with the code, so the numbers are kept here.
_LV = (
    "1.1 11.1 11.2 12.1 12.2 12.3 12.4 12.4.1 12.4.2 12.4.3 12.4.4 13.1 13.2 13.3 13.4 13.5 "
    "13.6 13.7 13.8 13.9 14.1 14.2 14.3 14.3.1 14.3.2 14.3.3 14.3.4 14.3.5 14.3.6 14.4 14.5 "
    "15.1 15.1.1 15.1.2 15.1.3 15.1.4 15.1.5 15.2 15.3 15.4 16.1 16.1.1 16.1.2 16.1.3 "
    "16.1.8 17.1 17.2 18.1 18.2 19.1 "
)
LV_PARAGRAPHS = set(_LV.split())
_NOVUS08 = (
    "1.1 1.1.1 1.1.2 2.1 2.1.1 2.1.2 2.1.3 2.1.4 2.2 3.1 3.2 3.3 3.4 3.5 3.6 3.7 3.8 4.1 "
    "4.2 5.1 5.2 5.3 5.4 6.1 6.2 6.3 6.4 7.1 7.1.1 7.1.2 7.1.3 7.1.4 7.1.5 7.2 7.2.1 7.2.2 "
    "7.2.3 7.2.4 7.2.5 7.3 8.1 8.1.1 8.1.2 8.1.3 8.1.4 8.1.5 8.1.6 9.1 9.1.1 9.1.2 9.1.3 "
    "9.1.4 9.1.5 9.1.6 9.1.7 9.1.8 9.1.9 9.1.10 9.1.11 9.2 10.1 10.2 10.3 11.1 11.2 11.3 "
    "11.4 11.4.1 11.4.2 11.4.3 11.4.4 11.4.5 12.1 12.2 12.3 12.4 12.5 12.6 12.8 12.9 12.10 "
    "12.11 12.12 12.13 12.14 12.15 12.16 12.17 12.18 12.19 12.20 12.21 12.22 12.23 12.24 "
    "13.1 13.2 13.3.1 13.3.2 13.3.3 13.3.4 13.3.5 13.4 13.5 13.6 13.7 13.7.1 13.7.2 13.7.3 "
    "13.7.4 13.8 13.9 14.1 14.2 14.3 14.4 15.1 15.2 15.3 16.1 16.1.1 16.1.2 16.1.3 16.1.4 16.1.5 "
    "16.1.6 16.1.7 16.1.8 16.1.9 16.1.10 16.1.11 17.1 17.1.1 17.1.2 17.1.3 17.1.4 17.1.5 "
    "17.1.6 17.1.7 17.1.8 17.1.9 17.1.10 17.1.11 17.1.12 17.1.13 17.1.14 17.1.15 17.1.16 "
    "17.1.17 17.1.18 17.1.19 17.1.20 17.2 17.3 17.4 17.5 17.6 17.7 18.1 18.1.1 18.1.2 "
    "18.1.3 18.1.4 18.1.5 18.1.6 18.1.7 19.1 19.1.1 19.1.2 19.1.3 19.1.4 19.1.5 19.1.6 "
    "19.1.7 19.1.8 19.1.9 19.1.10 19.1.11 19.2 19.3 20.1 20.2 20.3 20.4 20.5 20.6 21.1 21.2 "
    "21.3 21.4 21.5 21.6 21.7 21.8 21.9 22.1 22.1.1 22.1.2 22.2 22.3 22.4 23.1 23.2 24.1 "
    "24.2 24.3 24.4 24.5 25.1 25.2 26.1 26.2 27.1 "
)
NOVUS08_PARAGRAPHS = set(_NOVUS08.split()) | {"19"}  # 19: the hoiatus chapter as a whole


def _cited(rs) -> list[tuple[str, str]]:
    """(rule key, paragraph number) for every paragraph of its own text a ruleset cites."""
    rows = [(k, v) for k, v in rs.cite.items()]
    rows += [(k, o.rule) for k, o in (*rs.stroke_offences.items(), *rs.incidents.items())]
    rows += list(rs.remarks.items())
    own = re.compile(rf"{rs.name} (\d+(?:\.\d+)*)(?: \((\d+(?:\.\d+)+)\))?")
    return [(k, n) for k, rule in rows for m in own.finditer(rule) for n in m.groups() if n]


@pytest.mark.parametrize(
    ("rs", "paragraphs"),
    [(LV, LV_PARAGRAPHS), (NOVUS08, NOVUS08_PARAGRAPHS)],
    ids=["LV", "NOVUS08"],
)
def test_every_own_citation_is_a_paragraph_of_the_seed_text(rs, paragraphs) -> None:
    """A key cites its ruleset's text only where that text has the paragraph."""
    cited = _cited(rs)
    assert len(cited) > 30
    assert [(k, n) for k, n in cited if n not in paragraphs] == []
