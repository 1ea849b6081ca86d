"""Issue 12, point 7: a backgammon match on the live feed in Chromium.

The spectator's page `/watch?match=<id>` draws the board from the feed and shows an entry
posted over the API within a second, with its words and KSI paragraph, in two languages, and
"Final" when the match is over; the front page lists the matches and updates them in place
(a score, a new match), and `/?match=<id>` leads to a match's page; the recorder shows an entry
made on another device without a reload.
"""

from __future__ import annotations

import time

from .bg_helpers import BgMatch, open_recorder
from .harness import assert_no_horizontal_overflow, assert_readable_contrast, screenshot

VERSION = "(v) => Number(document.querySelector('[data-bg-board]')?.dataset.version || 0) >= v"
LIVE = "section.spectator[data-live=true]"


def _watch(page, match: BgMatch, lang: str) -> None:
    page.goto(f"/watch?match={match.id}")
    page.locator(f"language-picker button[data-lang={lang}]").click()
    page.wait_for_selector(f"html[lang={lang}]")
    page.wait_for_selector(LIVE)
    page.wait_for_function(VERSION, arg=match.version)


def _within_a_second(page, match: BgMatch, *commands: dict) -> float:
    """Post over the API; how long until the page draws the version it stored."""
    match.post(*commands)
    posted = time.monotonic()
    page.wait_for_function(VERSION, arg=match.version, timeout=5000)
    return time.monotonic() - posted


def test_the_spectator_page_follows_the_match_in_english_then_icelandic(page, head_api):
    match = BgMatch(head_api, length=1)
    match.post({"type": "StartGame"})
    _watch(page, match, "en")
    assert "match to 1 points" in page.locator("[data-title]").inner_text()
    assert page.locator("[data-log] li").count() == match.version  # every event so far

    took = _within_a_second(page, match, {"type": "RollOpening", "die_a": 3, "die_b": 1})
    assert took < 1.0, took
    board = page.locator("bg-board")
    assert board.locator("[data-dice]").get_attribute("data-dice") == "3-1"
    newest = page.locator("[data-log] li").first
    assert newest.get_attribute("data-type") == "BgOpeningRolled"
    assert "Ása starts" in newest.inner_text() and "KSI" in newest.inner_text()
    heard = "() => document.querySelector('[data-announce]').textContent"
    page.wait_for_function(f"() => ({heard})().includes('Ása starts')")  # a screen reader too

    play = {"type": "Play", "side": "A", "moves": [[8, 5], [6, 5]]}
    assert _within_a_second(page, match, play) < 1.0
    assert board.locator("[data-point='5']").get_attribute("data-a") == "2"
    assert page.locator("[data-final]").is_hidden()

    page.locator("language-picker button[data-lang=is]").click()
    page.wait_for_selector("html[lang=is]")
    assert "leikur upp í 1 stig" in page.locator("[data-title]").inner_text()
    took = _within_a_second(
        page, match, {"type": "Double", "side": "B"}, {"type": "Drop", "side": "A"}
    )
    assert took < 1.0, took
    assert "Úrslit" in page.locator("[data-title]").inner_text()
    assert page.locator("[data-final]").is_visible()
    assert board.locator("[data-score=B]").inner_text() == "1"
    words = page.locator("[data-log]").inner_text()
    assert "KSI 4.4.3" in words and "Bjarni" in words
    assert page.locator("[data-log] li").count() == match.version
    assert "bg." not in page.locator("#face").inner_text()  # words, never a message key
    assert_no_horizontal_overflow(page)
    assert_readable_contrast(page)
    screenshot(page, "bg-watch-final-is")


def test_the_front_page_lists_the_match_and_its_address_leads_to_it(page, head_api):
    match = BgMatch(head_api, length=3, players=("Gróa", "Hrafn"))
    match.post({"type": "StartGame"})
    page.goto("/")
    card = page.locator(f"[data-bg-match='{match.id}']")
    card.wait_for()
    assert "Gróa — Hrafn" in card.inner_text() and "0 : 0" in card.inner_text()
    page.evaluate("() => { window.sameDocument = true; }")
    match.post(
        {"type": "RollOpening", "die_a": 3, "die_b": 1},
        {"type": "Play", "side": "A", "moves": [[8, 5], [6, 5]]},
        {"type": "Double", "side": "B"},
        {"type": "Drop", "side": "A"},
    )
    card.locator("text=0 : 1").wait_for(timeout=2000)  # in place, from the feed
    later = BgMatch(head_api, length=5, players=("Íris", "Jón"))
    page.locator(f"[data-bg-match='{later.id}']").wait_for(timeout=2000)
    assert page.locator("[data-bg-match]").first.get_attribute("data-bg-match") == later.id
    assert page.evaluate("() => window.sameDocument") is True
    card.click()
    page.wait_for_url(f"**/watch?match={match.id}")
    page.wait_for_selector(LIVE)
    page.goto(f"/?match={match.id}")  # a korona-style address: the feed says backgammon
    page.wait_for_url(f"**/watch?match={match.id}")
    page.wait_for_function(VERSION, arg=match.version)


def test_an_unknown_match_says_so(page):
    page.goto("/watch?match=00000000-0000-4000-8000-000000000000")
    page.wait_for_selector("[data-missing]")


def test_the_recorder_shows_another_devices_entry_without_a_reload(page, head_api):
    match = BgMatch(head_api, length=3)
    open_recorder(page, match)
    page.wait_for_function("() => window.bg?.feed.state === 'live'")
    page.evaluate("() => { window.sameDocument = true; }")
    match.post({"type": "StartGame"}, {"type": "RollOpening", "die_a": 5, "die_b": 2})
    face = f"() => Number(document.getElementById('face').dataset.version) >= {match.version}"
    page.wait_for_function(face, timeout=2000)
    assert page.locator("bg-board [data-dice]").get_attribute("data-dice") == "5-2"
    assert page.evaluate("() => window.sameDocument") is True  # no reload


def test_the_spectators_clock_counts_down_between_presses(page, head_api):
    """The running side's time counts down on the spectator's board between presses, after
    the 12 s delay (KSI 3.5.5), from the recording device's time of the last press."""
    match = BgMatch(head_api, length=1, clock=True)  # 2 minutes each
    now = int(time.time() * 1000)
    match.post(
        {"type": "StartGame"},
        {"type": "RollOpening", "die_a": 3, "die_b": 1},
        {"type": "StartClock", "at_ms": now - 40_000},
        {"type": "PressClock", "side": "A", "at_ms": now - 30_000},  # B's time runs since
    )
    _watch(page, match, "en")
    clock = page.locator("bg-board [data-clock=B]")
    seconds = "(t) => { const [m, s] = t.split(':').map(Number); return m * 60 + s; }"
    first = page.evaluate(seconds, clock.inner_text())
    assert 100 <= first <= 104, first  # 120 s less ~18 s run after the delay
    page.wait_for_function(
        f"() => ({seconds})(document.querySelector('bg-board').shadowRoot"
        f".querySelector('[data-clock=B]').textContent) < {first}",
        timeout=3000,
    )
    a = page.evaluate(seconds, page.locator("bg-board [data-clock=A]").inner_text())
    assert a == 120  # the side not running keeps its time
