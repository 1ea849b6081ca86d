"""The federation's live pages (issue 51, point 4; decision 0200) in Chromium: a venue plays
a korona match and a backgammon match while pushing to a federation of two nodes; a person at
home opens the federation's page on the other node, sees both matches live at the venue,
opens each and sees the next stroke (korona) and the next move (backgammon) appear without
a reload, drawn by the hall's own boards. The venue's uplink cut (the node it pushes to
stopped) shows "the venue is offline since HH:MM" — in et, lv, en and is, with no English
word on the others, axe clean, on a phone (360×640) and a desk. The page's scripts talk to
the federation's origin only: every request Chromium makes goes there, none to the venue."""

from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from support.federation import new_federation_database
from support.harness import Api
from support.relay_setup import pushed, venue_and_nodes
from support.words import raw_codes

from .bg_helpers import BgMatch
from .harness import assert_no_horizontal_overflow, axe_violations, screenshot
from .test_spectator import NAMES, Table
from .test_words_everywhere import read

LANGS = ("et", "lv", "en", "is")
SIZES = {"phone": {"width": 360, "height": 640}, "desk": {"width": 1280, "height": 800}}
FED = {"TABLESIDE_FEDERATION_RELAY_OFFLINE_SECONDS": "2"}
VENUE = {"TABLESIDE_UPLINK_HEARTBEAT": "0.3"}
BG_PLAYERS = ("Ása Jónsdóttir", "Bjarni Ólafsson")
VERSION = "(v) => Number(document.querySelector('section.spectator')?.dataset.version || 0) > v"
CARD = "([id, v]) => Number(document.querySelector(`[data-match-id='${id}']`).dataset.version) > v"
HH_MM = re.compile(r"\b\d{1,2}[:.]\d{2}\b")


@pytest.fixture(scope="module")
def hall(chromium_ready, pg_server_url, new_database, tmp_path_factory) -> Iterator[dict]:
    """A venue pushing to node 0 of two; a korona match and a backgammon match in play."""
    url = new_database()
    fed = new_federation_database(pg_server_url)
    folder = tmp_path_factory.mktemp("federation-live")
    with venue_and_nodes(url, fed, folder, 2, fed_env=FED, **VENUE) as (venue, nodes, vid):
        head = Api(venue.base).login()
        table = Table(head, venue.base, 3)
        table.until_stroke()
        table.step()
        bg = BgMatch(head, length=3, players=BG_PLAYERS)
        bg.post({"type": "StartGame"})
        pushed(nodes[0].base, vid, url)
        yield {"venue": venue, "nodes": nodes, "vid": vid, "table": table, "bg": bg, "url": url}


def _open(browser, hall: dict, path: str, lang: str, size: str = "desk", axe: bool = False):
    """The page on the node the venue does not push to; under the federation's CSP unless
    axe-core is to be injected."""
    context = browser.new_context(
        base_url=hall["nodes"][1].base, viewport=SIZES[size], locale="en-GB", bypass_csp=axe
    )
    page = context.new_page()
    page.errors, page.asked = [], []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.on("request", lambda request: page.asked.append(request.url))
    page.on("websocket", lambda socket: page.asked.append(socket.url))
    page.goto(f"{path}&lang={lang}" if "?" in path else f"{path}?lang={lang}")
    page.wait_for_selector("html[data-ready=true]")
    page.wait_for_function(f"document.documentElement.lang === '{lang}'")
    return context, page


def _only_the_federation(page, hall: dict) -> None:
    federation = urlsplit(hall["nodes"][1].base).netloc
    venue = urlsplit(hall["venue"].base).netloc
    assert page.asked and all(urlsplit(u).netloc == federation for u in page.asked), page.asked
    assert not [u for u in page.asked if venue in u]


def test_federation_live_pages_follow_both_disciplines_without_reload(browser, hall) -> None:
    vid, table, bg = hall["vid"], hall["table"], hall["bg"]
    context, page = _open(browser, hall, f"/?live={vid}", "en")
    try:
        page.wait_for_selector("section.spectator[data-live=true]")
        page.wait_for_selector(f"[data-live-matches] [data-match-id='{table.match_id}']")
        page.wait_for_selector(f"[data-live-matches] [data-bg-match='{bg.id}']")
        card = page.locator(f"[data-match-id='{table.match_id}']")
        before = int(card.get_attribute("data-version"))
        table.step()  # the card on the venue's list follows, in place
        page.wait_for_function(CARD, arg=[table.match_id, before], timeout=60_000)
        page.click(f"[data-match-id='{table.match_id}']")
        page.wait_for_selector("section.spectator[data-live=true] korona-board")
        page.wait_for_selector(".log li[data-type=StrokeRecorded]")
        shown = int(page.locator("section.spectator").get_attribute("data-version"))
        page.evaluate("window.notReloaded = true")
        table.step()  # the judge's next command at the venue
        page.wait_for_function(VERSION, arg=shown, timeout=60_000)
        assert page.evaluate("window.notReloaded === true")
        assert NAMES[0][0] in page.locator("[data-live-score]").inner_text()
        _only_the_federation(page, hall)
        page.goto(f"/?live={vid}&match={bg.id}&lang=en")
        page.wait_for_selector("section.spectator[data-live=true] bg-board")
        shown = int(page.locator("section.spectator").get_attribute("data-version"))
        page.evaluate("window.notReloaded = true")
        bg.post({"type": "RollOpening", "die_a": 5, "die_b": 2})
        page.wait_for_function(VERSION, arg=shown, timeout=60_000)
        assert page.evaluate("window.notReloaded === true")
        assert "KSI" in page.locator(".log").inner_text()
        _only_the_federation(page, hall)
        assert not page.errors, page.errors
    finally:
        context.close()


def test_federation_live_pages_say_the_venue_is_offline_in_every_language(
    browser, hall, axe_ready
) -> None:
    vid, table, bg = hall["vid"], hall["table"], hall["bg"]
    hall["nodes"][0].stop()  # the venue's uplink is cut: the node it pushes to is gone
    names = frozenset({*NAMES[0], *NAMES[1], *BG_PLAYERS, "KSI", "EKML"})
    pages = {"venue": f"/?live={vid}", "korona": f"/?live={vid}&match={table.match_id}",
             "backgammon": f"/?live={vid}&match={bg.id}"}  # fmt: skip
    for size in SIZES:
        for lang in LANGS:
            for name, path in pages.items():
                context, page = _open(browser, hall, path, lang, size, axe=True)
                try:
                    notice = page.locator("[data-venue-notice][data-state=offline]")
                    notice.wait_for(timeout=60_000)
                    said = notice.inner_text()
                    assert HH_MM.search(said), (name, lang, said)
                    screenshot(page, f"federation/live-{name}-{lang}-{size}")
                    leaks = raw_codes(read(page), lang, names)
                    assert not leaks, (name, lang, size, leaks)
                    assert_no_horizontal_overflow(page)
                    assert axe_violations(page) == [], (name, lang, size)
                    assert not page.errors, page.errors
                    _only_the_federation(page, hall)
                finally:
                    context.close()
