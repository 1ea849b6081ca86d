"""A stroke with two outcomes is one entry (issue 14 point 1): the modifiers — striker in a
pocket or over, an opponent's puck pocketed, a puck over the cushion — are armed, then the
main outcome records them together; the banner lists every consequence with its paragraph.
At a phone, a portrait tablet and a laptop, in et, lv and en."""

from __future__ import annotations

import pytest

from .harness import screenshot
from .judge_helpers import settle, start_game, tap

VIEWPORTS = [(360, 640), (800, 1280), (1280, 800)]


@pytest.fixture(params=VIEWPORTS, ids=lambda v: f"{v[0]}x{v[1]}")
def viewport(request) -> dict[str, int]:
    return {"width": request.param[0], "height": request.param[1]}


def _strokes(head_api, match_id: str) -> list[dict]:
    events = head_api.get(f"/api/matches/{match_id}/events").json()
    return [e["event"] for e in events if e["type"] == "StrokeRecorded"]


def _banner(page) -> str:
    page.wait_for_function("document.querySelector('[data-banner]').innerText.trim() !== ''")
    return page.locator("[data-banner]").inner_text()


@pytest.mark.parametrize("lang", ["et", "lv", "en"])
def test_compound_strokes_are_one_entry_each(page, head_api, lang):
    t = start_game(page, head_api, lang)
    size = page.viewport_size
    where = f"{size['width']}x{size['height']}-{lang}"

    # 1. "Pocketed 2 and the striker went in": two taps, one stroke, a penalty puck (§24(1)4).
    tap(page, "striker_pocket")
    assert page.locator("main [data-act=striker_pocket]").get_attribute("aria-pressed") == "true"
    screenshot(page, f"judge-{where}-compound-armed")
    page.locator("main [data-act=pocketed]").nth(1).click()
    assert "EKML §24(1)4" in _banner(page)
    settle(page)
    assert page.locator("main [data-act=striker_pocket]").get_attribute("aria-pressed") == "false"

    # 2. "Pocketed own and an opponent's puck": three taps.
    tap(page, "puck_over", "opponent_pocketed")
    tap(page, "pocketed")
    settle(page)

    # 3. "Pocketed 1 and a puck over the cushion": three taps.
    tap(page, "puck_over", "own_over")
    tap(page, "pocketed")
    settle(page)

    # The common case is still one tap.
    tap(page, "no_pocket")
    settle(page)

    facts = [s["facts"] for s in _strokes(head_api, t["match_id"])]
    assert len(facts) == 4, facts
    assert facts[0]["own_pocketed"] == 2 and facts[0]["striker"] == "pocket"
    assert facts[1]["own_pocketed"] == 1 and facts[1]["opponent_pocketed"] == 1
    assert facts[1]["striker"] == "board"
    assert facts[2]["own_pocketed"] == 1 and facts[2]["own_over"] == 1
    assert facts[3]["own_pocketed"] == 0 and facts[3]["striker"] == "board"
    assert facts[3]["own_over"] == 0 and facts[3]["opponent_pocketed"] == 0


@pytest.mark.parametrize("viewport", [{"width": 360, "height": 640}], ids=["360x640"])
def test_a_modifier_pressed_again_is_disarmed(page, head_api):
    t = start_game(page, head_api)
    tap(page, "striker_over")
    tap(page, "striker_pocket")  # the striker ends in one place: this replaces "over"
    assert page.locator("main [data-act=striker_over]").get_attribute("aria-pressed") == "false"
    tap(page, "striker_pocket")
    assert page.locator("main [data-act=striker_pocket]").get_attribute("aria-pressed") == "false"
    tap(page, "pocketed")
    settle(page)
    (facts,) = [s["facts"] for s in _strokes(head_api, t["match_id"])]
    assert facts["striker"] == "board" and facts["own_pocketed"] == 1
