"""KSI 1.6.4 in Chromium: the spectator's page `/watch?match=<id>` of a match whose spectators
the TD barred at a player's request shows the notice in the reader's language and nothing of
the board or the log; the front page's list drops the match; the TD's recorder still follows
it; lifted, the board comes back on the open page."""

from __future__ import annotations

from .bg_helpers import BgMatch, open_recorder, send_td

LIVE = "section.spectator[data-live=true]"
VERSION = "(v) => Number(document.querySelector('[data-bg-board]')?.dataset.version || 0) >= v"


def test_ksi_1_6_4_the_spectator_page_shows_only_the_notice(page, head_api, context):
    match = BgMatch(head_api, length=3)
    match.post({"type": "StartGame"}, {"type": "RollOpening", "die_a": 3, "die_b": 1})
    page.goto(f"/watch?match={match.id}")
    page.locator("language-picker button[data-lang=is]").click()
    page.wait_for_selector("html[lang=is]")
    page.wait_for_selector(LIVE)
    page.wait_for_function(VERSION, arg=match.version)
    notice = page.locator("[data-barred]")
    assert notice.is_hidden()

    # the TD grants Bjarni's request on the recorder's sheet
    td = context.new_page()
    open_recorder(td, match)
    td.click("[data-td] summary")
    send_td(td, "bar", side="B")
    td.locator("[data-td-send=admit]").wait_for()  # the sheet now offers to lift it
    match.version += 1
    notice.wait_for(state="visible")
    assert "KSI 1.6.4" in notice.inner_text() and "áhorfendum" in notice.inner_text()
    assert page.locator("[data-bg-board]").is_hidden() and page.locator("[data-log]").is_hidden()
    match.post({"type": "Play", "side": "A", "moves": [[8, 5], [6, 5]]})
    page.wait_for_function(
        "(v) => Number(document.querySelector('section.spectator').dataset.version) >= v",
        arg=match.version,
    )
    assert "Ása" not in page.locator("#face").inner_text()  # nothing of the match, not even names

    # a spectator arriving now reads the notice, and the front page does not list it
    other = context.new_page()
    other.goto(f"/watch?match={match.id}")
    other.locator("[data-barred]").wait_for(state="visible")
    assert other.locator("[data-bg-board]").is_hidden()
    other.goto("/")
    other.wait_for_selector(LIVE)
    assert other.locator(f"[data-bg-match='{match.id}']").count() == 0

    # the TD's recorder still draws the board
    td.wait_for_function(
        "(v) => Number(document.getElementById('face').dataset.version) >= v", arg=match.version
    )
    assert td.locator("bg-board [data-point='5']").get_attribute("data-a") == "2"

    send_td(td, "admit")
    match.version += 1
    notice.wait_for(state="hidden")
    page.wait_for_function(VERSION, arg=match.version)
    assert page.locator("[data-bg-board]").is_visible()
