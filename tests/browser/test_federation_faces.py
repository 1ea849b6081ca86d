"""The federation's public face (issue 49, point 4; decision 0174) in Chromium: every view —
the front page with a search, an event as its venue publishes it, a player's page, a season's
list — in et, lv, en and is, on a phone (360×640) and a desk (1280×800): axe-core finds
nothing, no English word on the other languages, nothing wider than the screen; a receipt
pasted on the event's page is checked against its venue's key and the kept record."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator

import asyncpg
import pytest
from support.federation_read import (
    finished_round_robin,
    keep_venue,
    project,
    public_server,
    read_side_database,
)
from support.harness import run_async
from support.recorded import record_match
from support.words import raw_codes
from tableside.federation.register.players import add_player, rename

from .harness import assert_no_horizontal_overflow, axe_violations, screenshot
from .test_words_everywhere import read

pytestmark = pytest.mark.long  # started first under `make test` (tests/conftest.py)

LANGS = ("et", "lv", "en", "is")
SIZES = {"phone": {"width": 360, "height": 640}, "desk": {"width": 1280, "height": 800}}
PEOPLE = ["Kati Põld", "Ilze Ozola", "Jón Jónsson", "Mari Kask"]
VENUE, EVENT = "Kalevi saal", "Talvekarikas"


def _register(url: str) -> tuple[int, int]:
    """Kati (renamed once: a name before, on her page) and Mari in the register."""

    async def run() -> tuple[int, int]:
        conn = await asyncpg.connect(url)
        try:
            kati = (await add_player(conn, "Kati Põder", "registrar", club="Kalev")).federation_id
            await rename(conn, kati, "Kati Põld", "registrar")
            return kati, (await add_player(conn, "Mari Kask", "registrar")).federation_id
        finally:
            await conn.close()

    return run_async(run())


@pytest.fixture(scope="module")
def federation(pg_server_url, pwa_server, head_api, checkpoint_key) -> Iterator[dict]:
    """A finished round robin and a signed match at a real venue, kept at the federation and
    projected; the federation's public server over it."""
    url = read_side_database(pg_server_url)
    kati, mari = _register(url)
    members = [{"name": n, "birth_year": 1990, "sex": "F", "club": "Kalev"} for n in PEOPLE]
    members[0]["federation_id"], members[3]["federation_id"] = str(kati), str(mari)
    comp = finished_round_robin(head_api, EVENT, members)
    match = record_match(head_api, table=9, seed=5, games=1)
    receipt = head_api.get(f"/api/receipts/{match.match_id}").json()["receipt"]
    venue = uuid.uuid4()
    keep_venue(url, pwa_server.database_url, checkpoint_key, venue, VENUE)
    project(url, venue)
    server = public_server(url)
    (listed,) = json.loads(server_get(server, "/api/public/rankings"))["lists"]
    yield {
        "server": server, "kati": kati, "receipt": receipt,
        "pages": {
            "front": "/?q=Kalev",
            "event": f"/?event={venue}/{comp.id}",
            "player": f"/?player={kati}",
            "list": f"/?list={listed['key']}",
        },
        "names": frozenset({*PEOPLE, VENUE, EVENT, "Kati Põder", "Kalev"}),
    }  # fmt: skip
    server.stop()


def server_get(server, path: str) -> str:
    import httpx

    return httpx.get(server.base + path, timeout=10).text


def _open(browser, federation: dict, size: str, path: str, lang: str):
    context = browser.new_context(
        base_url=federation["server"].base, viewport=SIZES[size], locale="en-GB", bypass_csp=True
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    joiner = "&" if "?" in path else "?"
    page.goto(f"{path}{joiner}lang={lang}")
    page.wait_for_selector("html[data-ready=true]")
    page.wait_for_function(f"document.documentElement.lang === '{lang}'")
    page.errors = errors
    return context, page


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("lang", LANGS)
def test_every_view_in_every_language_and_size(browser, federation, axe_ready, lang, size) -> None:
    for name, path in federation["pages"].items():
        context, page = _open(browser, federation, size, path, lang)
        try:
            screenshot(page, f"federation/{name}-{lang}-{size}")
            assert page.locator("main#face:not([data-loading])").count() == 1
            assert not page.locator("main [role=alert]").count() or name == "event", name
            leaks = raw_codes(read(page), lang, federation["names"])
            assert not leaks, (name, lang, size, leaks)
            assert_no_horizontal_overflow(page)
            assert axe_violations(page) == [], (name, lang, size)
            assert not page.errors, page.errors
        finally:
            context.close()


def test_the_event_shows_what_its_venue_published(browser, federation) -> None:
    context, page = _open(browser, federation, "desk", federation["pages"]["event"], "et")
    try:
        rows = page.locator("table.standings tbody tr")
        assert rows.count() == len(PEOPLE)
        assert page.locator("[data-result]").count() == 6  # a round robin of four
        page.click(f"a[href='/?player={federation['kati']}']")
        page.wait_for_selector("[data-earlier-names]")
        assert "Kati Põder" in page.locator("[data-earlier-names]").inner_text()
    finally:
        context.close()


def test_the_list_names_the_matches_that_moved_each_rating(browser, federation) -> None:
    context, page = _open(browser, federation, "phone", federation["pages"]["list"], "lv")
    try:
        assert page.locator("table.standings").count() == 2  # the points view and the rating view
        said = page.locator(f"[data-change='{federation['kati']}']").inner_text()
        assert "mainīja spēles R" in said, said  # the one match between two linked players
    finally:
        context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_a_pasted_receipt_is_checked_against_the_venues_key(browser, federation, lang) -> None:
    context, page = _open(browser, federation, "phone", federation["pages"]["event"], lang)
    try:
        page.fill("#receipt-text", json.dumps(federation["receipt"]))
        page.click("[data-receipt-check] button[type=submit]")
        page.wait_for_selector(".verdict[data-verdict=holds]")
        forged = {**federation["receipt"], "result": "0:9"}
        page.fill("#receipt-text", json.dumps(forged))
        page.click("[data-receipt-check] button[type=submit]")
        page.wait_for_selector(".verdict[data-verdict=bad_signature]")
        assert VENUE in page.locator(".verdict").inner_text()
    finally:
        context.close()
