"""A team match in the console's Tables view (issue 13, point 6; EKML §29(2)): call-next
puts its three boards on three free tables side by side, skipping a table a walk-up match
holds; each board's card names its board and players; with no block of three left, the
button is disabled and says why. The venue screen names each board's table the same way, and
the judge's link on a board's table opens that board's match, titled with its board."""

from __future__ import annotations

import json

import pytest
from support.competition_play import Comp, player
from support.harness import Api

from .harness import ROOT

EN = json.loads((ROOT / "pwa" / "i18n" / "admin.en.json").read_text())
CLUBS = {
    "kalev": ("Kask", "Kuusk", "Kadakas"),
    "tartu": ("Tamm", "Toom", "Taru"),
    "narva": ("Nõmm", "Nurm", "Niit"),
    "pärnu": ("Pihl", "Paju", "Palm"),
}


@pytest.fixture
def viewport() -> dict[str, int]:
    return {"width": 1280, "height": 800}


def _team_cup(head_api: Api) -> Comp:
    guide = {
        "name": "Team tables",
        "format": "round_robin",
        "games_per_match": 1,
        "teams": {"boards": 3, "substitutes": 0, "play_all": True},
    }
    comp = Comp.create(head_api, guide)
    for club, names in CLUBS.items():
        entry = {"entrant_id": club, "name": club.title(), "members": [player(n) for n in names]}
        comp.do({"type": "RegisterEntrant", **entry, "team": {"boards": list(names)}})
        comp.do({"type": "ApproveEntrant", "entrant_id": club})
        comp.do({"type": "CheckInEntrant", "entrant_id": club})
    comp.do({"type": "MakeDraw", "seed": 4})
    return comp


def test_a_team_match_takes_a_block_of_cards(page, head_api: Api):
    comp = _team_cup(head_api)
    page.goto("/admin")
    page.fill("#login-user", "head")
    page.fill("#login-pass", "head-secret-1")
    page.click("[data-login] button[type=submit]")
    page.wait_for_selector("[data-guide]")
    page.goto(f"/admin#c={comp.id}")
    page.wait_for_selector("[data-competition-name]")
    page.click("[data-tab=tables]")
    page.fill("#f-table-count", "5")
    page.dispatch_event("#f-table-count", "change")
    assert head_api.create(1, ["Walk In"], ["Drop By"]).status_code == 201
    page.wait_for_selector("[data-table='1'][data-state=busy]")
    button = page.locator("[data-action=call_next]")
    assert button.inner_text() == EN["admin.tables.call_next.one"].replace("{count}", "1")
    button.click()
    page.wait_for_function("document.querySelectorAll('[data-state=waiting]').length === 3")
    call = comp.settled()["calls"][0]
    a, b = CLUBS[call["a"]], CLUBS[call["b"]]
    for board, table in ((1, 2), (2, 3), (3, 4)):
        card = page.locator(f"[data-table='{table}']")
        assert card.locator("[data-board]").inner_text() == f"Board {board}"
        players = f"{a[board - 1]} – {b[board - 1]}"
        assert card.locator("[data-players]").inner_text() == players
    assert page.locator("[data-table='2'] [data-no-show]").count() == 2
    assert page.locator("[data-table='3'] [data-no-show]").count() == 0
    assert page.locator("[data-table='5']").get_attribute("data-state") == "free"
    assert button.is_disabled()
    why = EN["admin.tables.why_no_block"].replace("{boards}", "3")
    assert page.locator("[data-why=call_next]").inner_text() == why
    screen = page.context.new_page()
    screen.goto("/screen")
    screen.wait_for_selector("html[data-ready=true]")
    for board, table in ((1, 2), (2, 3), (3, 4)):
        text = f"Table {table} · board {board}"
        screen.wait_for_function(
            "t => [...document.querySelectorAll('.card-table')].some(e => e.textContent === t)",
            arg=text,
        )
    screen.close()
    link = head_api.judge_token(3)["link"]
    judge = page.context.new_page()
    judge.goto(link[link.index("/judge") :])
    judge.wait_for_function("window.judge && window.judge.state.doc")
    assert judge.evaluate("window.judge.state.doc.board") == 2
    judge.wait_for_function(
        "document.querySelector('[data-table-title]').textContent === 'Table 3 · board 2'"
    )
    judge.close()
