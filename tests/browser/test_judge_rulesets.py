"""Each ruleset's pad in its own text's words (issue 35 points 5 and 6), in Chromium.

NOVUS08 calls its counted remark *hoiatus* (19) and has no yellow card (14.1: removal
"without a warning"); LV has no forgotten-debt rule (EKML §24(6) märkus is not its text);
a refusal reads in the pad's language.
"""

from __future__ import annotations

import pytest
from support.harness import Api

from .judge_helpers import choose, settle, start_game, tap


def _open(page, head_api: Api, ruleset: str, lang: str) -> dict:
    t = start_game(page, head_api, lang, ruleset=ruleset)
    page.wait_for_function(f"window.judge.state.catalogue?.name === '{ruleset}'")
    return t


def _sheet_values(page) -> list[str]:
    values = page.locator("dialog[open] button[data-value]").evaluate_all(
        "(bs) => bs.map((b) => b.dataset.value)"
    )
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog[open]", state="detached")
    return values


def _banner(page) -> str:
    page.wait_for_function("window.judge.state.banner")
    return " | ".join(page.evaluate("window.judge.state.banner.lines"))


@pytest.mark.parametrize(("lang", "word"), [("et", "Hoiatus"), ("lv", "Brīdinājums")])
def test_novus08_19_pad_calls_its_remark_hoiatus_and_offers_no_yellow_card(
    page, head_api: Api, lang: str, word: str
) -> None:
    t = _open(page, head_api, "NOVUS08", lang)
    assert page.locator("main [data-act=remark]").inner_text().startswith(word)
    tap(page, "more")
    offered = _sheet_values(page)
    assert "red" in offered and "yellow" not in offered  # NOVUS08 14.1: no card before
    tap(page, "remark", "striker_placed_wrongly")
    choose(page, "Mari Tamm")
    assert f"{word} 1/3" in _banner(page)
    assert "NOVUS08 19.1.1" in _banner(page)
    settle(page)
    # The spectators' log of the match says it in the same words.
    page.goto(f"/?match={t['match_id']}")
    page.wait_for_selector("[data-log] li[data-type=IncidentReported]")
    log = page.locator("[data-log]").inner_text()
    assert f"{word.lower()} 1/3" in log.lower(), log


@pytest.mark.parametrize("lang", ["et", "lv"])
def test_lv_pad_offers_no_forgotten_debt_and_refuses_in_its_language(
    page, head_api: Api, lang: str
) -> None:
    _open(page, head_api, "LV", lang)
    tap(page, "foul", "contact_opponent")  # LV 15.1.2 with all 8 on the board: a debt (15.3)
    settle(page)
    page.wait_for_function("window.judge.state.shown.game.pucks[0].debt === 1")
    tap(page, "more")
    assert "forget" not in _sheet_values(page)
    # A pad that still sends it (a catalogue cached before) hears the refusal in its language.
    before = page.evaluate("JSON.stringify(window.judge.state.banner?.lines || [])")
    page.evaluate("() => { window.judge.send({ type: 'ForgetDebt', side: 'A' }); }")
    page.wait_for_function(
        "(before) => JSON.stringify(window.judge.state.banner?.lines || []) !== before"
        " && window.judge.state.banner.tone === 'bad'",
        arg=before,
    )
    said = _banner(page)
    refusal = {"et": "unustatud võlga ei tühistata", "lv": "aizmirstu parādu nedzēš"}[lang]
    assert refusal in said, said
    assert "Rule violation" not in said and "forgotten-debt" not in said, said
    filled = page.evaluate(
        """async () => (await import('/js/i18n.js'))
             .citation('LV is silent; EKML §20(20) applied, by the guide')"""
    )
    assert (
        filled
        == {
            "et": "LV ei sätesta; rakendatud EKML §20(20), juhendi järgi",
            "lv": "LV noteikumi klusē; piemērots EKML §20(20) pēc nolikuma",
        }[lang]
    )


@pytest.mark.parametrize("lang", ["et", "lv"])
def test_a_mis_tapped_incident_is_refused_in_the_pads_language(
    page, head_api: Api, lang: str
) -> None:
    """EKML §24(1)15 is an offence in the opponent's turn: reported against the side with the
    turn, the refusal says what to report instead, in the pad's words."""
    _open(page, head_api, "EKML", lang)
    tap(page, "more", "incident")
    choose(page, "moved_puck_in_opponent_turn")
    choose(page, "Mari Tamm")  # Mari has the turn
    page.wait_for_function(
        "(window.judge.state.banner?.lines || []).join(' ').includes('§24(1)15')"
    )
    said = _banner(page)
    assert {"et": "see on selle poole enda löögikord", "lv": "tā ir šīs puses pašas gājiens"}[
        lang
    ] in said, said
    assert "Rule violation" not in said and "own turn" not in said, said


@pytest.mark.parametrize("lang", ["et", "lv"])
def test_an_opening_sent_twice_is_refused_in_the_pads_language(
    page, head_api: Api, lang: str
) -> None:
    """EKML §31: the opening is assigned once, after creation. A second pad (or a cached
    screen) sending it again hears the refusal in its own words, not the engine's English."""
    _open(page, head_api, "EKML", lang)
    before = page.evaluate("JSON.stringify(window.judge.state.banner?.lines || [])")
    page.evaluate(
        "() => { window.judge.send({ type: 'AssignOpeningShot', method: 'lot',"
        " lot_winner: 'B' }); }"
    )
    page.wait_for_function(
        "(before) => JSON.stringify(window.judge.state.banner?.lines || []) !== before"
        " && window.judge.state.banner.tone === 'bad'",
        arg=before,
    )
    said = _banner(page)
    assert {
        "et": "avalöök määratakse üks kord, pärast mängu loomist",
        "lv": "atklāšanas sitienu nosaka vienreiz, pēc spēles izveides",
    }[lang] in said, said
    assert "Rule violation" not in said and "assigned once" not in said, said


@pytest.mark.parametrize(("lang", "fill"), [("et", "ekml"), ("lv", "none")])
def test_an_lv_pad_offers_ekml_offences_only_where_the_guide_fills_lvs_silences(
    page, head_api: Api, lang: str, fill: str
) -> None:
    """Issue 35: a double hit is EKML §24(1)9, not LV's text; the pad offers it only when the
    match's guide fills LV's silences from EKML, and then cites it as filled by the guide."""
    start_game(page, head_api, lang, ruleset="LV", fill_silences=fill)
    page.wait_for_function(
        f"window.judge.state.catalogue?.name === 'LV'"
        f" && window.judge.state.catalogue.fill_silences === '{fill}'"
    )
    tap(page, "foul")
    offered = _sheet_values(page)
    assert "own_zone_puck_first" in offered  # LV 15.1.1 (13.2): LV's own
    assert ("double_hit" in offered) == (fill == "ekml"), offered
    rules = page.evaluate(
        "window.judge.state.catalogue.stroke_offences.map((o) => o.rule)"
        ".concat(Object.values(window.judge.state.catalogue.cite))"
    )
    ekml = [r for r in rules if "EKML" in r]
    assert all(r.endswith(", by the guide") for r in ekml), ekml
    assert bool(ekml) == (fill == "ekml"), ekml


def _sheet_text(page) -> str:
    text = page.locator("dialog[open]").inner_text()
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog[open]", state="detached")
    return text


def test_novus08_19_1_10_pad_says_hoiatus_in_the_time_picker_and_for_disturbing(
    page, head_api: Api
) -> None:
    """Issue 43 point 4: the NOVUS08 pad said "märkus" in the time picker (twice) and in the
    side-cushion consequence; disturbing the opponent is a hoiatus (19.1.10)."""
    _open(page, head_api, "NOVUS08", "et")
    tap(page, "time")
    said = _sheet_text(page)
    assert "märkus" not in said and said.count("hoiatus") >= 2, said
    tap(page, "more", "incident")
    side_cushion = page.locator("dialog[open] button[data-value=striker_at_side_cushion]")
    assert "hoiatus" in side_cushion.inner_text() and "märkus" not in side_cushion.inner_text()
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog[open]", state="detached")
    tap(page, "foul")
    assert "disturbed_opponent" not in _sheet_values(page)  # not a lost turn under NOVUS08
    tap(page, "remark", "disturbed_opponent")
    choose(page, "Jaan Kask")
    assert "NOVUS08 19.1.10" in _banner(page)


def _events(head_api: Api, match_id: str) -> list[dict]:
    return head_api.get(f"/api/matches/{match_id}/events").json()


def _note(page, value: str) -> str:
    text = page.locator(f"dialog[open] button[data-value={value}]").inner_text()
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog[open]", state="detached")
    return text


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("et", "LV 13.2; karistus: EKML §24(1)10, juhendi järgi"),
        ("lv", "LV 13.2; sods: EKML §24(1)10 pēc nolikuma"),
    ],
)
def test_lv_13_2_the_pad_cites_lvs_own_words_and_the_guides_sanction(
    page, head_api: Api, lang: str, said: str
) -> None:
    """Issue 54 point 5: 13.2 was cited "LV 13.2; LV noteikumi klusē; …" though LV speaks."""
    _open(page, head_api, "LV", lang)
    tap(page, "foul")
    note = _note(page, "placing_touched_puck")
    assert said in note and "klusē" not in note and "ei sätesta" not in note, note


def test_lv_13_2_13_4_13_5_unfilled_pad_offers_lvs_own_and_no_refused_sanction(
    page, head_api: Api
) -> None:
    """`fill_silences: none` (issue 54 point 5): the red card, 5 s and 30 s were offered and
    always refused, the remark list was empty and a 13.2 placing foul could not be recorded.
    Now: no card, no time report (no slow-play remark starts a limit); the remark list holds
    LV 13.4 and 13.5; 13.2 is recorded with LV's paragraph and no sanction."""
    t = start_game(page, head_api, "lv", ruleset="LV", fill_silences="none")
    page.wait_for_function(
        "window.judge.state.catalogue?.name === 'LV'"
        " && window.judge.state.catalogue.fill_silences === 'none'"
    )
    tap(page, "more")
    offered = _sheet_values(page)
    assert not {"red", "yellow", "time_5s", "time_30s"} & set(offered), offered
    assert page.locator("main [data-act=time]").is_disabled()
    tap(page, "remark")
    remarks = page.locator("dialog[open]").inner_text()
    assert _sheet_values(page) == ["cue_beyond_corner", "hands_on_board"]
    assert "LV 13.4; LV noteikumi sodu nenosaka" in remarks, remarks
    assert "LV 13.5" in remarks and "klusē" not in remarks, remarks
    tap(page, "foul")
    assert "LV 13.2; LV noteikumi sodu nenosaka" in _note(page, "placing_touched_puck")
    tap(page, "foul", "placing_touched_puck")
    settle(page)
    tap(page, "remark", "cue_beyond_corner")
    choose(page, "Mari Tamm")
    settle(page)
    events = _events(head_api, t["match_id"])
    noted = [e["event"]["rule"] for e in events if e["type"] == "OffenceDisregarded"]
    assert noted == ["LV 13.2; LV names no sanction", "LV 13.4; LV names no sanction"], noted
    kinds = {e["type"] for e in events}
    assert not kinds & {"PenaltyAwarded", "DebtRecorded", "RemarkGiven"}, kinds
    assert page.evaluate("window.judge.state.shown.remarks") == [0, 0]
