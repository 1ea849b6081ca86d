"""The venue CA cannot surprise (issue 52, point 5): /setup stays reachable on a tablet that
once opened the HTTPS origin by name (HSTS upgrades that name's plain port to TLS: the setup
URL is by address, which no browser keeps HSTS for), and a lost CA key makes a new CA that
the terminal and the console announce with its fingerprint, not the routine "(made now …)".

The last test replaces the module's CA: it runs last, with a browser of its own.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Error as PlaywrightError
from support.hall import HALL, NAMES
from support.harness import ADMIN
from tableside.web.venue_tls import CA_KEY, fingerprint

from .admin_helpers import admin_login
from .conftest import new_context
from .harness import CHROMIUM, CHROMIUM_ARGS, screenshot

pytestmark = pytest.mark.long


def test_setup_is_reachable_after_an_hsts_visit_by_name(hall_server, hall_tablet, hall_api):
    tablet = hall_tablet(hall_server.https)  # one browser profile: its HSTS kept between pages
    answer = tablet.new_page().goto("/")  # by name, over HTTPS: its answer carries HSTS
    assert answer.headers["strict-transport-security"].startswith("max-age=")
    by_name = f"http://{HALL}:{hall_server.http_port}/setup"
    with pytest.raises(PlaywrightError):  # the name's plain port is upgraded to TLS: lost
        tablet.new_page().goto(by_name)
    setup = hall_api.get("/api/setup").json()["setup_url"]  # what the console shows
    assert setup == f"{hall_server.console}/setup"
    page = tablet.new_page()  # a page of its own: the failed one's error page lands late
    page.goto(setup)
    assert page.locator("#fingerprint").inner_text().count(":") == 31
    assert page.locator("#remove").is_visible()  # and the step after the event


def test_a_lost_ca_key_is_announced_in_the_terminal_and_the_console(
    hall_server, playwright, viewport
):
    before = fingerprint(hall_server.ca.read_bytes())
    hall_server.stop()
    (hall_server.keys / CA_KEY).unlink()
    hall_server.start()
    after = fingerprint(hall_server.ca.read_bytes())
    assert after != before
    printed = hall_server.output.read_text()
    assert f"every tablet must trust the new CA: fingerprint {after}" in printed

    args = [
        *CHROMIUM_ARGS,
        "--host-resolver-rules=" + ", ".join(f"MAP {name} 127.0.0.1" for name in NAMES),
        f"--ignore-certificate-errors-spki-list={hall_server.spki()}",  # the new CA, trusted
    ]
    browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=args)
    try:
        console = new_context(browser, hall_server.https, viewport).new_page()
        admin_login(console, *ADMIN)
        notice = console.locator("[data-new-ca]")
        notice.wait_for()
        assert after in notice.inner_text() and "every tablet must trust the new CA" in (
            notice.inner_text()
        )
        screenshot(console, "hall-admin-new-venue-ca")
    finally:
        browser.close()
