"""A called match moved to another table from the console (issue 54, point 9; decision 0207):
the card of a called match offers "Move to table…"; the TD picks a free table and says why; the
match's card is then on the new table and the old table's card is free, and the venue screen
open all along shows it on the new table only."""

from __future__ import annotations

import pytest
from support.competition_play import Comp, player
from support.harness import Api, wait_for

from .admin_helpers import admin_login
from .harness import screenshot

WHY = "the cushion of table 1 came loose"


@pytest.fixture
def viewport() -> dict[str, int]:
    return {"width": 1280, "height": 900}


@pytest.fixture(scope="module")
def called(head_api: Api) -> tuple[Comp, str]:
    comp = Comp.create(
        head_api, {"name": "Kolimiskarikas", "format": "round_robin", "games_per_match": 1}
    )
    comp.enter([(f"e{i}", [player(f"Mängija {i}")]) for i in range(1, 5)])
    comp.do({"type": "MakeDraw", "seed": 3})
    match_id = comp.settled()["waiting"][0]["match_id"]
    comp.do({"type": "CallMatch", "match_id": match_id, "table": 1})
    return comp, match_id


def test_ekml_17_3_the_console_moves_a_called_match_to_another_table(page, context, called) -> None:
    comp, match_id = called
    screen = context.new_page()
    screen.goto("/screen")
    screen.wait_for_selector(".screen-list [data-table='1']", state="attached")
    admin_login(page, "head", "head-secret-1")
    page.goto(f"/admin#c={comp.id}")
    page.wait_for_selector("[data-competition-name]")
    page.click("[data-tab=tables]")
    page.click(f"[data-table='1'] [data-move-match='{match_id}']")
    page.select_option(f"[data-move-table='{match_id}']", "5")
    page.fill("#f-move-reason", WHY)
    page.click(f"[data-confirm-move='{match_id}']")
    wait_for(
        lambda: {c["match_id"]: c["table"] for c in comp.doc()["calls"]}[match_id] == 5, 15, 0.2
    )
    page.wait_for_selector("[data-table='5'][data-state=waiting]")
    page.wait_for_selector("[data-table='1'][data-state=free]")
    assert match_id in page.locator("[data-table='5']").inner_text()
    screenshot(page, "move-match-console")
    # The venue screen, open all along, follows: the match on table 5, table 1 gone.
    screen.wait_for_selector(".screen-list [data-table='5']", state="attached")
    assert screen.locator(".screen-list [data-table='1']").count() == 0
