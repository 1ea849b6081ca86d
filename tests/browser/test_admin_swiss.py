"""A 24-player Swiss of 7 rounds run end to end through the TD's console (Chromium, real
server): log in, set up the guide, paste the entry list, check everyone in, make the draw,
call each round's matches to 12 tables, pair the next round, publish. The matches are played
by the tables' judges through the real match API (simulated strokes, one game each), their
results flow into the competition, and the final standings shown are checked by hand:
an independent tally of the points, and the order the pure domain's fold gives."""

from __future__ import annotations

import uuid
from collections import Counter

import pytest
from support.competition_play import Comp, Tables
from tableside.competition import rules as competition
from tableside.competition.rules.standings import StandingsView
from tableside.eventlog import EventStore
from tableside.server.registry import build_registry

from .harness import screenshot

pytestmark = pytest.mark.long  # started first under `make test` (tests/conftest.py)

PLAYERS = 24
ROUNDS = 7
TABLES = 12


@pytest.fixture
def viewport() -> dict[str, int]:
    return {"width": 1280, "height": 800}  # the TD's laptop


def entry_list() -> str:
    clubs = ("Tallinn", "Tartu", "Riga", "Pärnu")
    return "\n".join(
        f"Player {i:02d}; {1960 + i}; M; {clubs[i % 4]}" for i in range(1, PLAYERS + 1)
    )


def test_swiss_24_players_7_rounds_through_the_console(page, pwa_server, head_api):
    page.goto("/admin")
    page.fill("#login-user", "head")
    page.fill("#login-pass", "head-secret-1")
    page.click("[data-login] button[type=submit]")
    page.fill("#f-name", "Swiss 24")
    page.select_option("#f-format", "swiss")
    page.fill("#f-rounds", str(ROUNDS))
    page.fill("#f-games", "1")
    page.click("[data-create]")
    page.wait_for_selector("[data-competition-name]")
    comp_id = page.evaluate("new URLSearchParams(location.hash.slice(1)).get('c')")
    comp = Comp(head_api, comp_id)

    page.fill("#f-entry-list", entry_list())
    page.click("[data-entry-list] button[type=submit]")
    page.wait_for_function(f"document.querySelectorAll('[data-entrant]').length === {PLAYERS}")
    page.click("[data-check-in-all]")
    page.wait_for_function(
        f"document.querySelectorAll('[data-status=checked_in]').length === {PLAYERS}",
        timeout=30_000,
    )

    page.click("[data-tab=rounds]")
    page.click("[data-action=draw]")
    page.wait_for_selector("[data-round='1']")
    page.click("[data-tab=tables]")
    page.fill("#f-table-count", str(TABLES + 4))  # a hall where earlier tests hold a few
    page.dispatch_event("#f-table-count", "change")
    tables = Tables(pwa_server, head_api, pwa_server.database_url, seed=24)
    try:
        for number in range(1, ROUNDS + 1):
            play_round(page, comp, tables, number)
    finally:
        tables.close()

    page.click("[data-tab=standings]")
    page.wait_for_function(
        f"document.querySelectorAll('[data-standings] tbody tr').length === {PLAYERS}"
    )
    shown = page.eval_on_selector_all(
        "[data-standings] tbody tr",
        "rows => rows.map(r => [r.dataset.entrant, Number(r.querySelector('[data-points]')"
        ".dataset.points)])",
    )
    screenshot(page, "admin-swiss-standings")
    check_standings(shown, comp, pwa_server.database_url)
    page.click("[data-action=finish]")
    page.click("[data-confirm=finish]")  # the dialog says what follows
    page.wait_for_selector("[data-action=finish][disabled]")
    assert comp.settled()["finished"]


def play_round(page, comp: Comp, tables: Tables, number: int) -> None:
    """Call the round's matches from the Tables screen, let the judges play them, and pair
    the next round from the Draw screen once every result is in."""
    page.click("[data-tab=tables]")
    page.click("[data-action=call_next]")
    page.wait_for_function(
        f"document.querySelectorAll('[data-state=waiting], "
        f"[data-state=playing]').length === {TABLES}"
    )
    assert tables.play_calls(comp) == TABLES
    page.click("[data-tab=rounds]")
    page.wait_for_selector(f"[data-round-status=complete][data-rounds='{number}']", timeout=30_000)
    if number < ROUNDS:
        page.click("[data-action=pair_next]")
        page.wait_for_selector(f"[data-round='{number + 1}']")


def check_standings(shown: list, comp: Comp, url: str) -> None:
    """Points by an independent tally (2 a win, 1 a draw, as many rounds as played), and the
    order the pure domain gives when it folds the competition's stored events."""
    doc = comp.settled()
    tally, played = Counter(), Counter()
    for result in doc["results"].values():
        a, b = result["a"], result["b"]
        played.update((a, b))
        if result["a_games"] > result["b_games"]:
            tally[a] += 2
        elif result["b_games"] > result["a_games"]:
            tally[b] += 2
        else:
            tally.update({a: 1, b: 1})
    assert len(doc["results"]) == ROUNDS * PLAYERS // 2
    assert set(played.values()) == {ROUNDS}
    assert {e: p for e, p in shown} == {e["id"]: float(tally[e["id"]]) for e in doc["entrants"]}
    assert sum(p for _, p in shown) == 2 * len(doc["results"])
    pairs = [frozenset((r["a"], r["b"])) for r in doc["results"].values()]
    assert len(set(pairs)) == len(pairs)  # Swiss: nobody met twice
    store = EventStore.connect(build_registry(), url, 1)
    try:
        events = [s.event for s in store.read(uuid.UUID(comp.id))]
    finally:
        store.close()
    folded = competition.standings(StandingsView(competition.fold(events)))
    assert [e for e, _ in shown] == [row.entrant for row in folded]
