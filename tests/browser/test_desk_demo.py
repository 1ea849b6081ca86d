"""The demo a newcomer can join (issue 34, point 5), in the console: the run is numbered on the
list of competitions, and the Tables tab says which match is kept for table 5 with a countdown
that runs (the director's hold itself: tests/foundation/test_demo_hold.py)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from support.harness import Api, Server, wait_for

from .admin_helpers import admin_login


@pytest.fixture(scope="module")
def pwa_server(chromium_ready, module_database_url: str) -> Iterator[Server]:
    """This module's server runs the demo (the faces are served by it too)."""
    env = {"TABLESIDE_DEMO": "1", "TABLESIDE_DEMO_PACE": "0.02,0.05"}
    srv = Server(module_database_url, env=env).start()
    yield srv
    srv.stop()


def test_console_numbers_the_run_and_counts_down_table_5s_match(page, pwa_server) -> None:
    anon = Api(pwa_server.base)
    demo = wait_for(
        lambda: (d := anon.get("/api/demo")).status_code == 200 and d.json()["held"] and d.json(),
        60,
        0.5,
    )
    admin_login(page, "demo", "demo-head-judge")
    page.goto("/admin")
    page.wait_for_selector("[data-competitions] a:has-text('Demo Swiss #1')")
    page.goto(f"/admin#c={demo['competition_id']}")
    page.wait_for_selector("[data-competition-name]")
    page.click("[data-tab=tables]")
    notice = page.locator(f"[data-demo-held='{demo['held']['match_id']}']")
    notice.wait_for()
    clock = notice.locator("[data-demo-until]")
    first = clock.inner_text()
    assert re.fullmatch(r"\d+:[0-5]\d", first) and first != "0:00"
    page.wait_for_function(
        "(was) => document.querySelector('[data-demo-until]').textContent !== was", arg=first
    )  # it counts down
    assert "table 5" in notice.inner_text()
    # Issue 45: the console calls a chosen match to a chosen table — the visitor's to table 5.
    held = demo["held"]["match_id"]
    row = page.locator(f"[data-waiting-match='{held}']")
    row.locator("select").select_option("5")
    row.locator("[data-action=call_to]").click()

    def called() -> dict:
        doc = anon.get(f"/api/competitions/{demo['competition_id']}").json()
        return {c["match_id"]: c["table"] for c in doc["calls"]}

    assert wait_for(lambda: called().get(held), 10, 0.2) == 5
