"""A competition for spectators: its tables, standings and bracket from the competition API,
refreshed as results come in; results as CSV."""

from __future__ import annotations

import pytest
from support.competition_play import Comp, Tables, player, wait_results
from support.harness import Api

from .harness import assert_no_horizontal_overflow, screenshot

GUIDE = {"name": "Kevadkarikas", "format": "single_elimination", "games_per_match": 1}
NAMES = ["Mari Tamm", "Jānis Bērziņš", "Liis Mets", "Kati Põld"]


@pytest.fixture(scope="module")
def cup(head_api: Api, pwa_server) -> Comp:
    comp = Comp.create(head_api, GUIDE)
    comp.enter([(f"e{i}", [player(name)]) for i, name in enumerate(NAMES, 1)])
    comp.do({"type": "MakeDraw", "seed": 3})
    comp.do({"type": "CallNextMatches", "free_tables": [51, 52]})
    return comp


def test_standings_and_bracket_follow_the_results(page, head_api, pwa_server, cup) -> None:
    page.goto("/")
    page.wait_for_selector("html[data-ready=true]")
    page.locator("[data-competitions] a", has_text="Kevadkarikas").click()
    page.wait_for_selector(".match-card[data-table='51']")
    page.wait_for_selector("[data-bracket] .bracket li")
    assert page.locator("h2").first.inner_text() == "Kevadkarikas"
    tables = Tables(pwa_server, head_api, pwa_server.database_url, seed=4)
    try:
        played = tables.play_calls(cup)
    finally:
        tables.close()
    wait_results(cup, played)
    page.wait_for_function(
        "(n) => document.querySelectorAll('.bracket .winner').length === n",
        arg=played,
        timeout=10000,
    )
    shown = page.eval_on_selector_all(".bracket .winner", "(w) => w.map((x) => x.textContent)")
    assert len(shown) == played and set(shown) <= set(NAMES), shown
    page.wait_for_selector("table.standings tbody tr")
    assert page.locator("table.standings tbody tr").count() == 4
    csv = page.locator("a", has_text="Results (CSV)").get_attribute("href")
    assert head_api.http.get(csv).status_code == 200
    assert_no_horizontal_overflow(page)
    screenshot(page, "spectator-competition-360x640")
