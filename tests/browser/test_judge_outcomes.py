"""Outcomes a judge meets that the pad could not record (issue 35 point 3), on an 800×1280
tablet in Chromium: an opponent's puck driven into a cushion zone or the centre circle (EKML
§21(6)–(8), §28(3)/(4)); a pocketed puck with the striker back over the zone line (§25(1)4);
the last pucks together with a zone-line loss (EKML §27(4); LV 17.2)."""

from __future__ import annotations

import pytest
from support.harness import Api

from .judge_helpers import (
    choose,
    last_pucks_together_over_the_zone_line,
    settle,
    start_game,
    tap,
)


@pytest.fixture
def viewport() -> dict[str, int]:
    return {"width": 800, "height": 1280}


def _events(head_api: Api, match_id: str) -> list[dict]:
    return head_api.get(f"/api/matches/{match_id}/events").json()


def _last_stroke(head_api: Api, match_id: str) -> tuple[dict, list[dict]]:
    """The last stroke's facts and the events its entry brought."""
    events = _events(head_api, match_id)
    at = max(i for i, e in enumerate(events) if e["type"] == "StrokeRecorded")
    return events[at]["event"]["facts"], events[at + 1 :]


def _has(events: list[dict], kind: str, rule: str) -> bool:
    return any(e["type"] == kind and rule in e["event"].get("rule", "") for e in events)


def test_ekml_28_3_both_readings_recorded_on_the_pairs_pad(page, head_api: Api) -> None:
    """Decision 0185: §28(3) changes §21(7)'s consequence, not its trigger. A legal stroke that
    leaves the opponent's puck in the rear zone is no offence (§21(8)); a direct hit on it
    that drives it there is penalised and the puck stays (§28(3)); into the centre it goes
    back (§28(4))."""
    t = start_game(page, head_api, "et", pairs=True)
    tap(page, "puck_over", "opponent_into_zone")  # after a legal contact with an own puck
    tap(page, "no_pocket")
    settle(page)
    facts, after = _last_stroke(head_api, t["match_id"])
    assert facts["opponent_into_zone"] == 1 and facts["first_contact"] == "own_open"
    assert _has(after, "OpponentPucksLeft", "EKML §21(8)")
    assert not any(e["type"] in ("FoulCommitted", "PenaltyAwarded") for e in after), after
    tap(page, "puck_over", "opponent_into_zone_hit")
    tap(page, "no_pocket")
    settle(page)
    facts, after = _last_stroke(head_api, t["match_id"])
    assert facts["opponent_into_zone"] == 1 and facts["first_contact"] == "opponent"
    assert _has(after, "OpponentPucksLeft", "EKML §28(3)")  # not restored, penalised
    assert _has(after, "FoulCommitted", "EKML §28(3)")
    assert any(e["type"] == "PenaltyAwarded" for e in after)
    tap(page, "puck_over", "opponent_into_centre_hit")
    tap(page, "no_pocket")
    settle(page)
    facts, after = _last_stroke(head_api, t["match_id"])
    assert facts["opponent_into_centre"] == 1
    assert _has(after, "PucksRestored", "EKML §28(4)")  # restored, and a penalty
    assert _has(after, "FoulCommitted", "EKML §28(4)")


def test_ekml_23_1_2_the_knocker_chosen_on_the_pad_the_game_to_the_other_side(
    page, head_api: Api
) -> None:
    """The waiting pair's player knocks the table, 2 pucks move: the game goes to the shooting
    pair, not against whoever has the turn (issue 54 point 1)."""
    t = start_game(page, head_api, "et", pairs=True)
    tap(page, "pocketed")  # the game has started (a knock before it only restores, §20(24))
    settle(page)
    shooter = page.evaluate("window.judge.state.shown.game.turn")
    doc = page.evaluate("window.judge.state.shown")
    assert shooter in doc["side_a"]
    knocker = doc["side_b"][1]
    tap(page, "more", "knock")
    assert page.locator("dialog[open] h2").inner_text() == "Kes lauda tõukas?"
    choose(page, knocker)
    choose(page, "2")
    settle(page)
    events = _events(head_api, t["match_id"])
    knock = next(e["event"] for e in events if e["type"] == "IncidentReported")
    assert knock["player"] == knocker and knock["side"] == "B"
    ended = next(e["event"] for e in events if e["type"] == "GameEnded")
    assert ended["winner"] == "A" and ended["rule"] == "EKML §23(1)2", ended


def test_ekml_25_1_4_pocketed_puck_with_the_striker_over_the_zone_line(page, head_api: Api) -> None:
    t = start_game(page, head_api, "et")
    tap(page, "foul", "zone_line")  # armed, not recorded: what was pocketed comes next
    assert page.locator("main [data-act=pocketed]").first.is_enabled()
    tap(page, "pocketed")
    settle(page)
    facts, after = _last_stroke(head_api, t["match_id"])
    assert facts["own_pocketed"] == 1 and facts["crossed_zone_line"] is True
    assert _has(after, "TurnPassed", "EKML §25(1)4")
    assert page.evaluate("window.judge.state.shown.game.pucks[0].on_board") == 7


@pytest.mark.parametrize(
    ("ruleset", "lang", "ending", "rule"),
    [("EKML", "et", "GameEnded", "EKML §27(4)"), ("LV", "lv", "GameAnnulled", "LV 17.2")],
)
def test_last_pucks_together_with_a_zone_line_loss(
    page, head_api: Api, ruleset: str, lang: str, ending: str, rule: str
) -> None:
    t = start_game(page, head_api, lang, ruleset=ruleset)
    last_pucks_together_over_the_zone_line(page)
    settle(page)
    facts, after = _last_stroke(head_api, t["match_id"])
    assert facts["own_pocketed"] == 1 and facts["opponent_pocketed"] == 1
    assert facts["crossed_zone_line"] is True
    assert _has(after, ending, rule), after
    if ending == "GameEnded":  # EKML §27(4): a loss of the turn loses the game
        assert next(e for e in after if e["type"] == ending)["event"]["winner"] == "B"


def test_remark_for_partner_advice_preselects_the_shooting_pairs_partner(
    page, head_api: Api
) -> None:
    start_game(page, head_api, "et", pairs=True)
    shooter = page.evaluate("window.judge.state.shown.game.turn")
    tap(page, "remark", "partner_advice_after_placing")
    offered = page.locator("dialog[open] button[data-value]").evaluate_all(
        "(bs) => bs.map((b) => b.dataset.value)"
    )
    doc = page.evaluate("window.judge.state.shown")
    side = doc["side_a"] if shooter in doc["side_a"] else doc["side_b"]
    partner = next(p for p in side if p != shooter)
    assert offered[0] == partner  # EKML §26(1)7: the shooting pair's partner advised
    choose(page, partner)
    settle(page)
