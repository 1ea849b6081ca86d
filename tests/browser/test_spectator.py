"""Spectators at `/`: tables update in place within a second of the judge's tap, a match's
log speaks plain words, a player's page lists their matches, and a dropped feed looks stale."""

from __future__ import annotations

import random
import time

import msgspec
import pytest
from support.harness import Api
from support.play import fold_response
from tableside.disciplines.korona import commands as rc
from tableside.disciplines.korona import simulate

from .harness import assert_no_horizontal_overflow, screenshot

NAMES = (["Mari Tamm"], ["Jānis Bērziņš"])
LARGE = {"width": 1280, "height": 800}


class Table:
    """A match on a table and its judge, one simulated command at a time."""

    def __init__(self, head: Api, base: str, number: int, seed: int = 5) -> None:
        self.rng = random.Random(seed)
        self.judge = Api(base, head.judge_token(number)["token"])
        r = head.create(number, *NAMES, games=3)
        assert r.status_code == 201, r.text
        self.match_id = r.json()["match_id"]
        self.view = fold_response(None, self.match_id, r.json())

    def step(self) -> dict:
        """Post the simulator's next judge command; the reply's body."""
        cmd = simulate.next_command(self.view.state, self.rng)
        assert cmd is not None and not isinstance(cmd, rc.CorrectDecision)
        r = self.judge.command(self.match_id, self.view.version, msgspec.to_builtins(cmd))
        assert r.status_code == 201, r.text
        self.view = fold_response(self.view, self.match_id, r.json())
        return r.json()

    def until_stroke(self) -> None:
        """Play up to the point where the next command is a stroke."""
        while not isinstance(
            simulate.next_command(self.view.state, random.Random(0)), rc.RecordStroke
        ):
            self.step()


@pytest.fixture(scope="module")
def table(head_api: Api, pwa_server) -> Table:
    t = Table(head_api, pwa_server.base, 21)
    t.until_stroke()
    for _ in range(3):
        t.step()
    return t


def ready(page, path: str) -> None:
    page.goto(path)
    page.wait_for_selector("html[data-ready=true]")
    page.wait_for_selector(".live-state[data-state=live]")


def test_a_table_card_shows_the_judges_stroke_within_a_second(page, table: Table) -> None:
    ready(page, "/")
    card = page.locator(".match-card[data-table='21']")
    card.wait_for()
    assert "Mari Tamm" in card.inner_text() and "Jānis Bērziņš" in card.inner_text()
    version = table.step()["events"][-1]["version"]
    tapped = time.monotonic()  # the server has stored the tap; from here the feed has 1 s
    page.wait_for_selector(f".match-card[data-table='21'][data-version='{version}']", timeout=1000)
    assert time.monotonic() - tapped < 1.0
    pucks = table.view.state.game.pucks
    assert (
        card.locator(".card-side[data-side='0'] .card-pucks").inner_text()
        == f"{pucks[0].on_board} left"
    )
    assert_no_horizontal_overflow(page)
    screenshot(page, "spectator-tables-360x640")


def test_the_match_page_logs_the_stroke_in_words_within_a_second(page, table: Table) -> None:
    ready(page, f"/?match={table.match_id}")
    page.wait_for_selector(f".log li[data-version='{table.view.version - 1}'], .log li")
    table.until_stroke()
    body = table.step()
    tapped = time.monotonic()  # the server has stored the tap; from here the feed has 1 s
    entry = body["events"][0]
    assert entry["type"] == "StrokeRecorded"
    line = page.locator(f".log li[data-version='{entry['version']}']")
    follows = {"TurnKept": "turn continues", "TurnPassed": "turn passes to"}
    after = [follows[e["type"]] for e in body["events"][1:] if e["type"] in follows]
    # the stroke's line and what follows from it (the events of one command may come in two
    # messages of the feed): all of it within the second
    page.wait_for_function(
        "([sel, words]) => { const li = document.querySelector(sel);"
        " return li && words.every((w) => li.innerText.includes(w)); }",
        arg=[f".log li[data-version='{entry['version']}']", after],
        timeout=1000,
    )
    assert time.monotonic() - tapped < 1.0
    text = line.inner_text()
    player, facts = entry["event"]["player"], entry["event"]["facts"]
    said = f"pocketed {facts['own_pocketed']}" if facts["own_pocketed"] else "pocketed nothing"
    assert text.startswith(f"{player} {said}"), text
    for words in after:
        assert f" — {words}" in text or f"; {words}" in text, text
    games = page.locator("[data-games='0']").inner_text()
    assert games == str(table.view.state.won[0])
    assert_no_horizontal_overflow(page)
    screenshot(page, "spectator-match-360x640")


def test_the_log_speaks_estonian_and_latvian(page, table: Table) -> None:
    ready(page, f"/?match={table.match_id}")
    page.wait_for_selector(".log li[data-type=StrokeRecorded]")
    page.locator("language-picker button[data-lang=et]").click()
    page.wait_for_selector("html[lang=et]")
    log = page.locator(".log").inner_text()
    assert "lõi auku" in log or "ei löönud ühtki auku" in log
    page.locator("language-picker button[data-lang=lv]").click()
    page.wait_for_selector("html[lang=lv]")
    assert "iesita" in page.locator(".log").inner_text()


def test_a_dropped_feed_greys_the_live_dots_and_says_so(page, context, table: Table) -> None:
    ready(page, "/")
    page.locator(".match-card[data-table='21']").wait_for()
    dot = ".match-card[data-table='21'] .live-dot"
    live_colour = page.eval_on_selector(dot, "(d) => getComputedStyle(d).backgroundColor")
    context.set_offline(True)
    page.wait_for_selector("section[data-live=false] .live-state[data-state=offline]")
    stale = page.eval_on_selector(dot, "(d) => getComputedStyle(d).backgroundColor")
    assert stale != live_colour and stale == "rgb(95, 99, 104)"  # --stale
    assert "not live" in page.locator(".live-state").inner_text()
    screenshot(page, "spectator-offline-360x640")
    context.set_offline(False)
    page.wait_for_selector("section[data-live=true] .live-state[data-state=live]")


def test_a_players_page_lists_their_matches(page, table: Table) -> None:
    ready(page, f"/?match={table.match_id}")
    page.locator(".score a.player", has_text="Jānis Bērziņš").click()
    page.wait_for_selector("[data-player-matches] .match-card")
    assert page.locator("h2").inner_text() == "Jānis Bērziņš"
    cards = page.locator("[data-player-matches] .match-card")
    assert cards.first.get_attribute("data-match-id") == table.match_id
    assert_no_horizontal_overflow(page)
    screenshot(page, "spectator-player-360x640")


@pytest.mark.parametrize("viewport", [LARGE], ids=["1280x800"])
def test_large_screen_views_fit(page, table: Table, viewport) -> None:
    for name, path in (("tables", "/"), ("match", f"/?match={table.match_id}")):
        ready(page, path)
        page.wait_for_selector(".match-card, .log li")
        assert_no_horizontal_overflow(page)
        screenshot(page, f"spectator-{name}-1280x800")
