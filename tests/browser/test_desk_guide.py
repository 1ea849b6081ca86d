"""The guide form gets pairs right (issue 34, point 1): a pairs discipline defaults to 4 / 2 / 0
(EKML §32(2)2) until the TD picks a scale; a round robin's guide may draw lots for the opening
instead of the first-listed opening (EKML §31(1), KUUSALU's coin toss); the judge pad asks what
the match's guide leaves open — no coin toss in a round robin, no "first-listed opens" in an
elimination match."""

from __future__ import annotations

import pytest
from support.competition_play import Comp, player
from support.harness import Api, wait_for

from .admin_helpers import admin_login
from .judge_helpers import open_judge

PAIRS = [(f"p{i}", [player(f"Jaan Tamm{i}"), player(f"Mari Tamm{i}", "F")]) for i in range(1, 5)]


def test_guide_form_scores_pairs_4_2_0_and_offers_the_opening_by_lot(page, head_api: Api):
    admin_login(page, "head", "head-secret-1")
    page.fill("#f-name", "Paarid 420")
    page.select_option("#f-discipline", "mixed_pairs")
    assert page.input_value("#f-scale") == "420"  # was 210: "Punktid 0 : 2" on the pad
    page.select_option("#f-format", "swiss")
    assert not page.locator("#f-opening-by-lot").is_visible()  # Swiss draws lots anyway
    page.select_option("#f-format", "round_robin")
    assert page.locator("#f-opening-by-lot").is_visible()
    page.check("#f-opening-by-lot")
    page.click("[data-create]")
    page.wait_for_selector("[data-competition-name]")
    comp_id = page.evaluate("location.hash").split("=", 1)[1]
    guide = head_api.get(f"/api/competitions/{comp_id}").json()["guide"]
    assert guide["points"]["win"] == 4 and guide["points"]["draw"] == 2
    assert guide["opening_by_lot"] is True


def called_on_pad(page, head_api: Api, guide: dict, table: int) -> None:
    """Four mixed pairs under `guide`, drawn, one match called to `table`, its pad open."""
    comp = Comp.create(head_api, {"discipline": "mixed_pairs", "games_per_match": 1, **guide})
    comp.enter(PAIRS)
    comp.do({"type": "MakeDraw", "seed": 1})
    comp.do({"type": "CallNextMatches", "free_tables": [table]})
    wait_for(lambda: head_api.get("/api/hall").json() and comp.settled()["calls"], timeout=15)
    link = head_api.judge_token(table)["link"]
    open_judge(page, link[link.index("/judge") :])
    page.wait_for_selector("[data-panel=opening]")


@pytest.mark.parametrize(
    "guide, table, offered",
    [
        ({"name": "RR paarid", "format": "round_robin"}, 640, ["listing"]),
        ({"name": "RR loos", "format": "round_robin", "opening_by_lot": True}, 641, ["A", "B"]),
        ({"name": "DE paarid", "format": "double_elimination"}, 642, ["A", "B"]),
    ],
    ids=["ekml_31_1_round_robin_first_listed", "guide_lot_in_round_robin", "elimination_lot"],
)
def test_pad_offers_the_opening_the_guide_gives(page, head_api: Api, guide, table, offered):
    called_on_pad(page, head_api, guide, table)
    shown = page.eval_on_selector_all(
        "[data-panel=opening] [data-opening]", "(b) => b.map((x) => x.dataset.opening)"
    )
    assert shown == offered
    text = page.locator("[data-panel=opening]").inner_text().lower()
    assert ("won the coin toss" in text) == (offered != ["listing"])  # the question asked
    page.locator("[data-panel=opening] [data-opening]").first.click()
    for _ in range(2):  # the pair with the right picks its opener, then who sits next
        page.locator("dialog[open] button[data-value]").first.click()
    page.wait_for_selector("[data-panel=opening]", state="detached")


def test_a_wrong_guide_is_mended_and_an_empty_competition_removed(page, head_api: Api, pwa_server):
    """Issue 34, point 4: a men's event refused a woman and its guide could not change even
    with no entrant; an empty competition could not be removed and stayed listed on `/`."""
    admin_login(page, "head", "head-secret-1")
    page.fill("#f-name", "Meeste üksik (viga)")
    page.click("[data-create]")
    page.wait_for_selector("[data-competition-name]")
    comp_id = page.evaluate("location.hash").split("=", 1)[1]
    page.fill("#f-entry-list", "Mari Mets; 1990; F")
    page.click("[data-entry-list] button[type=submit]")
    page.wait_for_selector("[data-bad-line='1']")
    page.click("[data-mend-guide] summary")
    page.check("[data-mend-guide] #f-women-in-mens")
    page.click("[data-mend-guide] [data-amend]")
    wait_for(lambda: head_api.get(f"/api/competitions/{comp_id}").json()["guide"]["women_in_mens"])
    page.click("[data-entry-list] button[type=submit]")
    page.wait_for_selector("[data-entrant]:has-text('Mari Mets')")
    assert page.locator("[data-mend-guide], [data-action=remove-competition]").count() == 0

    page.goto("/admin")
    page.fill("#f-name", "Tühi võistlus")
    page.click("[data-create]")
    page.wait_for_selector("[data-competition-name]")
    empty = page.evaluate("location.hash").split("=", 1)[1]
    page.click("[data-action=remove-competition]")
    assert "nothing else changes" in page.inner_text("[data-confirm-dialog=remove]")
    page.click("[data-confirm=remove]")
    anyone = Api(pwa_server.base)
    wait_for(
        lambda: all(c["competition_id"] != empty for c in anyone.get("/api/competitions").json())
    )
    page.goto("/")
    page.wait_for_selector("html[data-ready=true]")
    page.wait_for_function(
        "() => !document.body.innerText.includes('Tühi võistlus')", timeout=10_000
    )
    assert comp_id in {c["competition_id"] for c in anyone.get("/api/competitions").json()}
