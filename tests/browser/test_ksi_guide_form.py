"""Issue 53, point 7: the console's guide form with "Kotra (KSI)" offered EKML's age classes,
"women may play in the men's class" and men's/women's singles, and its clock was only on/off.
Set to backgammon it shows only KSI's settings: one open event, clocks and baffle boxes each
optional, preferred or mandatory as KSI 3.5.1.1-3 and 3.4.1.1-3 say, and no korona field; the
guide it stores says so, and a mandatory clock clocks every match."""

from __future__ import annotations

import pytest
from support.competition_play import Comp

from .test_admin_console import log_in

KORONA_ONLY = ("#f-games", "#f-scale", "#f-time-cap", "#f-play-all", "#f-team",
               "#f-age_class", "#f-women-in-mens", "#f-fill_silences")  # fmt: skip
USES = ["optional", "preferred", "mandatory"]


def _options(page, selector: str) -> list[str]:
    return page.eval_on_selector_all(f"{selector} option", "o => o.map(x => x.value)")


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 800}])
def test_the_ksi_guide_form_shows_only_ksis_settings(page, head_api, viewport) -> None:
    log_in(page, "head", "head-secret-1")
    page.fill("#f-name", "Haustmót KSI")
    assert page.locator("#f-age_class").is_visible()  # a korona guide has them
    page.select_option("#f-sport", "backgammon")
    hidden = [s for s in KORONA_ONLY if page.locator(s).count() and page.locator(s).is_visible()]
    assert hidden == [], hidden
    assert _options(page, "#f-discipline") == ["open_singles"]
    assert _options(page, "#f-ruleset") == ["KSI"]
    assert _options(page, "#f-bg_clock_use") == USES
    assert _options(page, "#f-bg_baffle_box") == USES
    said = page.locator("[data-bg-settings]").inner_text()
    assert "KSI 3.5.1" in said and "KSI 3.4.1" in said, said
    form = page.locator("[data-guide]").inner_text()
    assert "EKML" not in form, form
    page.select_option("#f-bg_clock_use", "mandatory")
    page.select_option("#f-bg_baffle_box", "preferred")
    page.select_option("#f-format", "single_elimination")
    page.fill("#f-bg-lengths", "5")
    page.click("[data-create]")
    page.wait_for_selector("[data-competition-name]")
    comp = Comp(head_api, page.evaluate("new URLSearchParams(location.hash.slice(1)).get('c')"))
    guide = comp.settled()["guide"]
    settings = guide["settings"]
    assert (settings["clock_use"], settings["clock"], settings["baffle_box"]) == (
        "mandatory", True, "preferred"), settings  # fmt: skip
    assert guide["age_class"] is None and guide["women_in_mens"] is False, guide
