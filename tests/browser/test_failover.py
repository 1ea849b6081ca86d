"""Issue 33: the judge's pad, its server gone for good (killed with its data), goes on
recording on the promoted standby — without a reload and without losing a stroke: the pad
learned the second address ahead of time (its QR link and GET /api/servers), its outbox
sends what was not acknowledged there under the same command ids, its feed follows."""

from __future__ import annotations

import pytest
from support.harness import Api
from support.standby import primary_and_standby

from .judge_helpers import new_table, open_judge, settle, tap, turn

pytestmark = pytest.mark.long  # two PostgreSQL servers and two tableside processes


def _stroke(page, k: int, tapped: list[str]) -> None:
    """Each player pockets one, then misses (as test_judge_offline)."""
    tapped.append(turn(page))
    tap(page, "pocketed" if k % 2 == 0 else "no_pocket")


def test_the_pad_records_on_the_promoted_server_without_a_reload(browser) -> None:
    with primary_and_standby() as pair:
        head = Api(pair.bases[0]).login()
        table = new_table(head, ["Mari Tamm"], ["Jaan Kask"])
        assert "&servers=" in table["path"]  # the QR link carries the second address
        context = browser.new_context(
            base_url=pair.bases[0],
            viewport={"width": 360, "height": 640},
            locale="en-GB",
            has_touch=True,
            bypass_csp=True,  # as conftest `context`; test_standby checks the real CSP
        )
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        try:
            open_judge(page, table["path"])
            page.locator("[data-panel=opening] .side-0").click()
            settle(page)
            page.evaluate("window.loadedOnce = true")  # gone if the page reloads
            tapped: list[str] = []
            for k in range(4):
                _stroke(page, k, tapped)
                settle(page)  # the next turn is read from the board, as the judge does

            pair.kill_primary()
            for k in range(4, 8):  # tapped while no server answers: kept in the outbox
                _stroke(page, k, tapped)
                page.wait_for_function("(n) => window.judge.state.pending.length >= n", arg=k - 3)
            pair.promote()
            settle(page, timeout=90_000)
            for k in range(8, 12):
                _stroke(page, k, tapped)
                settle(page, timeout=30_000)
            assert page.evaluate("window.loadedOnce") is True
            assert page.evaluate("location.origin") == pair.bases[0]
            # The promoted server has no standby of its own: the TD's console says so on top.
            console = context.new_page()
            console.goto(pair.bases[1] + "/admin")
            warning = console.locator("[data-replication][data-state=unprotected]")
            warning.wait_for(state="visible", timeout=30_000)
            assert "this machine only" in warning.inner_text()
        finally:
            context.close()
        promoted = Api(pair.bases[1], head.token)
        history = promoted.get(f"/api/matches/{table['match_id']}/history").json()
        strokes = [h for h in history if h["type"] == "StrokeRecorded"]
        assert len(strokes) == 12  # every stroke, none twice
        assert [s["version"] for s in strokes] == sorted(s["version"] for s in strokes)
        assert tapped == ["Mari Tamm", "Mari Tamm", "Jaan Kask", "Jaan Kask"] * 3
        assert not errors, errors  # as conftest `page`
