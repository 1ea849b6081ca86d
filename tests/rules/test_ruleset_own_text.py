"""Each ruleset applies its own text (issue 35 points 5 and 6).

LV (shared/seeds/003, §11–19): where it is silent and the guide fills the silence from EKML,
the event says so; what LV does not have is not offered at all. The LV text has no remarks,
no game losses for conduct, no §20(20) (the striker left at the side cushion), no
forgotten-debt rule (§24(6) märkus) and no debt placed when the opponent pockets the
debtor's puck (§24(5)). NOVUS08 has no yellow card: its counted remark is the
hoiatus (19), and 14.1 removes a player without one.
"""

from __future__ import annotations

import random
import re

import pytest
from tableside.disciplines.korona import RuleViolation, decide
from tableside.disciplines.korona import events as ev
from tableside.disciplines.korona.commands import (
    AssignOpeningShot,
    CreateMatch,
    ForgetDebt,
    GiveWarning,
    ReportIncident,
)
from tableside.disciplines.korona.fold import fold
from tableside.disciplines.korona.rulesets import EKML
from tableside.disciplines.korona.rulesets_variants import LV, NOVUS08, UNFILLED
from tableside.disciplines.korona.simulate import next_command, play_match
from tableside.disciplines.korona.state import initial_state
from tableside.match.exports.labels import citation

from .gwt import S, given, pot, setup

_FILLED = re.compile(  # a silence filled, or an own prohibition with EKML's sanction (0186)
    r"^(?:(LV|NOVUS08) [\d.]+; sanction: (EKML §[^;]+), by the guide"
    r"|(LV|NOVUS08) is silent; (EKML §[^;]+) applied, by the guide)$"
)


def _rules(rs) -> list[tuple[str, str, str, str]]:
    """(ruleset, table, key, citation) for every rule key a ruleset's table holds."""
    rows = [(rs.name, "cite", k, v) for k, v in rs.cite.items()]
    rows += [(rs.name, "stroke_offences", k, o.rule) for k, o in rs.stroke_offences.items()]
    rows += [(rs.name, "incidents", k, o.rule) for k, o in rs.incidents.items()]
    rows += [(rs.name, "remarks", k, v) for k, v in rs.remarks.items()]
    return rows


def _ekml(table: str, key: str) -> str:
    value = getattr(EKML, table)[key]
    return value if isinstance(value, str) else value.rule


def _own_or_filled(ruleset: str, table: str, key: str, rule: str) -> None:
    if rule.startswith(f"{ruleset} ") and "EKML" not in rule:
        return  # the ruleset's own paragraph
    filled = _FILLED.match(rule)
    assert filled, f"{ruleset} {table}.{key} cites {rule!r}: not its text nor a filled silence"
    own, sanction, silent, ekml = filled.groups()
    assert (own or silent, sanction or ekml) == (ruleset, _ekml(table, key)), (table, key, rule)


@pytest.mark.parametrize(
    ("ruleset", "table", "key", "rule"), [*_rules(LV), *_rules(NOVUS08)], ids=lambda x: str(x)[:40]
)
def test_rule_keys_cite_the_rulesets_text_or_say_the_guide_filled_the_silence(
    ruleset: str, table: str, key: str, rule: str
) -> None:
    _own_or_filled(ruleset, table, key, rule)


@pytest.mark.parametrize(
    ("key", "paragraph"),
    [
        ("placement", "LV 15.2"),
        ("debt_full", "LV 15.3"),
        ("zone_line", "LV 13.7"),
        ("last_together", "LV 17.2"),
        ("pairs_zone_not_restored", "LV 18.2"),
    ],
)
def test_lv_cites_its_own_paragraph_where_it_has_one(key: str, paragraph: str) -> None:
    assert LV.cite[key] == paragraph


def test_lv_has_no_forgotten_debt_and_no_debt_placed_when_the_opponent_pockets() -> None:
    assert "debt_forgotten" not in LV.cite  # EKML §24(6) märkus: not offered on an LV pad
    assert "debt_opponent_pockets" not in LV.cite  # EKML §24(5)
    state = given(setup("LV"), [S("ann", first_contact="opponent"), pot("bob")])
    assert state.game.pucks[0].debt == 1
    with pytest.raises(RuleViolation) as refused:
        decide(state, ForgetDebt(side="A"))
    assert refused.value.rule == "LV 15.3" and refused.value.code == "no_forgotten_debt"


def test_lv_striker_at_side_cushion_says_the_guide_applied_ekml_20_20() -> None:
    state = given(setup("LV"), [S("ann")])
    events = decide(state, ReportIncident(code="striker_at_side_cushion", player="ann"))
    ended = next(e for e in events if type(e) is ev.GameEnded)
    assert ended.rule == "LV is silent; EKML §20(20) applied, by the guide"


@pytest.mark.parametrize("pairs", [False, True], ids=["singles", "pairs"])
@pytest.mark.parametrize("ruleset", ["LV", "NOVUS08"])
def test_no_simulated_event_cites_ekml_unless_the_guide_filled_the_silence(
    ruleset: str, pairs: bool
) -> None:
    rng = random.Random(35)
    seen = 0
    for _ in range(40):
        for e in play_match(rng, ruleset, pairs=pairs, games=2):
            for part in re.split(r", (?=LV |EKML |NOVUS08 )", getattr(e, "rule", "")):
                if "EKML" in part:
                    assert _FILLED.match(part), (type(e).__name__, e.rule)
                    assert part.startswith(ruleset), (type(e).__name__, e.rule)
                    seen += 1
    assert seen or ruleset == "NOVUS08"  # LV's matches did reach the filled silences


def test_novus08_14_1_has_no_yellow_card_its_counted_remark_is_the_hoiatus() -> None:
    assert "yellow" not in NOVUS08.cite and "yellow_repeat" not in NOVUS08.cite
    state = given(setup("NOVUS08"), [S("ann")])
    with pytest.raises(RuleViolation) as refused:
        decide(state, GiveWarning(player="ann", card="yellow"))
    assert refused.value.rule.startswith("NOVUS08 ") and refused.value.code == "no_yellow_card"
    red = decide(state, GiveWarning(player="ann", card="red"))
    assert [e.rule for e in red if type(e) is ev.WarningGiven] == ["NOVUS08 14.1"]
    assert all(rule.startswith("NOVUS08 ") for rule in NOVUS08.remarks.values())


@pytest.mark.parametrize(
    ("ruleset", "table", "key", "rule"),
    [*_rules(UNFILLED["LV"]), *_rules(UNFILLED["NOVUS08"])],
    ids=lambda x: str(x)[:40],
)
def test_with_the_silences_left_unfilled_no_rule_key_cites_ekml(
    ruleset: str, table: str, key: str, rule: str
) -> None:
    """The guide's `fill_silences: none`: the ruleset's own paragraph or `LV is silent`, never
    an EKML paragraph; with `ekml` (the table above) every EKML citation says the guide."""
    assert "EKML" not in rule and "by the guide" not in rule, (table, key, rule)
    assert rule.startswith(f"{ruleset} "), (table, key, rule)


def _unfilled(ruleset: str, fmt: str = "singles"):
    state = initial_state()
    a, b = (("ann", "cid"), ("bob", "dan")) if fmt == "pairs" else (("ann",), ("bob",))
    create = CreateMatch(
        match_id="m", side_a=a, side_b=b, ruleset=ruleset, fmt=fmt, fill_silences="none"
    )
    return given(state, [create, AssignOpeningShot(method="lot", lot_winner="A")])


def test_lv_unfilled_striker_at_side_cushion_is_refused_not_borrowed_from_ekml_20_20() -> None:
    state = given(_unfilled("LV"), [S("ann")])
    with pytest.raises(RuleViolation) as refused:
        decide(state, ReportIncident(code="striker_at_side_cushion", player="ann"))
    assert refused.value.code == "not_in_ruleset" and "EKML" not in refused.value.rule
    # The same match with the guide's fill: the engine applies EKML §20(20) and says so.
    filled = given(setup("LV"), [S("ann")])
    ended = decide(filled, ReportIncident(code="striker_at_side_cushion", player="ann"))
    assert any(e.rule == "LV is silent; EKML §20(20) applied, by the guide" for e in ended)


def test_lv_unfilled_opponent_puck_over_after_a_foul_hit_is_no_ekml_24_1_16_foul() -> None:
    over = S("ann", first_contact="opponent", opponent_over=1)
    filled = [e for e in decide(setup("LV"), over) if type(e) is ev.FoulCommitted]
    assert "opponent_over_foul" in [e.code for e in filled]  # EKML §24(1)16, by the guide
    unfilled = [e for e in decide(_unfilled("LV"), over) if type(e) is ev.FoulCommitted]
    assert "opponent_over_foul" not in [e.code for e in unfilled]
    assert all("EKML" not in e.rule for e in unfilled), unfilled


@pytest.mark.parametrize("fmt", ["singles", "pairs"])
@pytest.mark.parametrize("ruleset", ["LV", "NOVUS08"])
def test_an_unfilled_match_records_no_ekml_citation(ruleset: str, fmt: str) -> None:
    """Setup, strokes, the match's end: every event a match with `fill_silences: none` stores."""
    rng = random.Random(35)
    state = _unfilled(ruleset, fmt)
    events: list = []
    for _ in range(60):
        cmd = next_command(state, rng)
        if cmd is None:
            break
        try:
            new = decide(state, cmd)
        except RuleViolation as refused:
            assert "EKML" not in refused.rule, refused.rule
            continue
        state = fold(new, state)
        events += new
    assert events
    assert state.fill_silences == "none"
    for e in events:
        assert "EKML" not in getattr(e, "rule", ""), (type(e).__name__, e.rule)


@pytest.mark.parametrize(
    ("lang", "said"),
    [("en", "LV is silent"), ("et", "LV ei sätesta"), ("lv", "LV noteikumi klusē")],
)
def test_an_unfilled_silence_reads_in_the_readers_language(lang: str, said: str) -> None:
    assert citation(lang, UNFILLED["LV"].cite["match_end"]) == said
    filled = citation(lang, LV.cite["match_end"])
    assert filled.startswith(said.split(" ")[0]) and "EKML §32(1)" in filled, filled
