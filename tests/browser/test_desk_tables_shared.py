"""The console's hall, shared by every TD's laptop (issue 54, point 9): the number of tables
was kept per browser, so a second laptop did not show tables 9-12. It is the competition's
now, on the server; and the console links the venue screen (the competition's and the
hall's), which it did not."""

from __future__ import annotations

from support.competition_play import Comp, player
from support.harness import Api, wait_for

from .admin_helpers import admin_login
from .conftest import new_context


def test_a_second_td_laptop_shows_the_table_count_set_on_the_first(
    browser, pwa_server, head_api: Api, viewport
) -> None:
    comp = Comp.create(head_api, {"name": "Kahe sülearvuti karikas", "format": "round_robin"})
    comp.enter([(f"e{i}", [player(f"Mängija {i}")]) for i in range(1, 5)])
    comp.do({"type": "MakeDraw", "seed": 3})
    laptops = [new_context(browser, pwa_server.base, viewport) for _ in range(2)]
    try:
        first, second = (laptop.new_page() for laptop in laptops)
        admin_login(first, "head", "head-secret-1")
        first.goto(f"/admin#c={comp.id}")
        first.click("[data-tab=tables]")
        first.fill("#f-table-count", "12")
        first.dispatch_event("#f-table-count", "change")
        first.wait_for_selector(".cards [data-table='12']")
        assert wait_for(lambda: comp.doc()["tables"] == 12, 15, 0.2)
        admin_login(second, "head", "head-secret-1")
        second.goto(f"/admin#c={comp.id}")
        second.click("[data-tab=tables]")
        second.wait_for_selector(".cards [data-table='12']")
        assert second.locator(".cards [data-table]").count() == 12
        assert second.input_value("#f-table-count") == "12"
        link = second.get_attribute("[data-screen-link]", "href")
        assert link == f"/screen?competition={comp.id}"
        second.click("[data-all-competitions]")
        second.wait_for_selector('[data-screen-link][href="/screen"]')  # the view redrawn
    finally:
        for laptop in laptops:
            laptop.close()
