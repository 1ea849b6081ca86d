"""Every name the certificate carries works (issue 52, Done when): the judge pad is live at
two of the venue certificate's names (`hall.test`, `vm.test`) and at the laptop's loopback
console (`http://127.0.0.1:<plain port>`), though the server was told no HTTPS origin (a
harness naming the tested name hid that `/live` accepted one origin only); the judge link
names the one canonical origin whichever name it was made at; and a pad at an address the
feed does not serve says why instead of "Loading the table…" for good.
"""

from __future__ import annotations

import pytest
from support.hall import NAMES, STRANGER

from .harness import screenshot
from .judge_helpers import new_table, open_judge

pytestmark = pytest.mark.long


@pytest.mark.parametrize("where", [*NAMES, "console"])
def test_the_pad_is_live_at_each_name_of_the_certificate_and_at_the_console(
    hall_server, hall_tablet, hall_api, where
):
    origin = hall_server.console if where == "console" else hall_server.at(where)
    table = new_table(hall_api, ["Mari Tamm"], ["Jaan Kask"])
    page = hall_tablet(origin).new_page()
    open_judge(page, table["path"])  # waits for the live feed to be live
    assert page.evaluate("location.origin") == origin
    assert page.locator("[data-live-state=live]").count() == 1
    assert page.locator("[data-notice]").count() == 0


def test_links_name_the_one_canonical_origin_whichever_name_made_them(hall_server, hall_api):
    for name in NAMES:  # the console opened at either name: the same origin in the link
        at_name = {**hall_api.headers(), "Host": f"{name}:{hall_server.port}"}
        issued = hall_api.http.post("/api/tables/77/judge-token", headers=at_name)
        assert issued.status_code == 201, issued.text
        assert issued.json()["link"].startswith(f"{hall_server.canonical}/judge?table=77#")


def test_a_pad_at_an_address_the_feed_does_not_serve_says_why(hall_server, hall_tablet, hall_api):
    table = new_table(hall_api, ["Ann"], ["Bo"])
    page = hall_tablet(hall_server.at(STRANGER)).new_page()
    page.goto(table["path"])
    notice = page.locator("[data-notice='judge.live_origin']")
    notice.wait_for()
    assert "live feed" in notice.inner_text()
    screenshot(page, "hall-judge-foreign-origin")


def test_a_spectator_in_clear_is_told_the_address_gets_no_live_feed(
    hall_server, hall_tablet, hall_api
):
    """A page in clear on the hall network gets no live feed (decision 0117); since issue 52
    it says so, where it said "There is no such match" or reconnected for good."""
    table = new_table(hall_api, ["Ann"], ["Bo"])
    page = hall_tablet(hall_server.http).new_page()
    page.goto(f"/?match={table['match_id']}")
    notice = page.locator("[data-notice='spec.live_origin']")
    notice.wait_for()
    assert "no live feed" in notice.inner_text()
