"""Browser fixtures: Debian's Chromium driven by Playwright, against a real server.

- ``chromium_ready`` (session): skips the browser tests when Chromium or Playwright is
  missing, and fails them instead under ``CI=true`` (a green CI must mean they ran).
- ``pwa_server`` (module): the service suite's uvicorn process (tests/support/harness.py
  ``Server``) on a fresh database from ``new_database()``: the API, /live and pwa/.
- ``playwright`` / ``browser`` (module): Chromium, headless, fresh temporary profile.
- ``context`` / ``page`` (function): a new browser context on ``pwa_server`` (phone-sized
  viewport unless a test asks otherwise); ``page`` fails the test on an uncaught JS error.
  Both bypass the CSP (Playwright polls string expressions with eval); ``test_csp.py``
  opens the faces under the real policy.
- ``persistent`` (function): ``persistent(profile_dir)`` opens Chromium on a kept profile
  (close it and call again to "restart the browser"); what it opened is closed at the end.
- ``axe_ready`` (module): skips (under CI, fails) a test that needs axe-core when it is missing.
- ``head_api`` (module): the head judge's HTTP client (tests/support/harness.py ``Api``).
Helpers in ``harness.py``: ``screenshot(page, name)`` (test-artifacts/browser/),
``assert_no_horizontal_overflow(page)``, ``assert_readable_contrast(page)`` (4.5:1, shadow
roots included), ``open_blank(page)`` (the shared modules on a page with no face).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from support.harness import Api, Server

from .harness import CHROMIUM, CHROMIUM_ARGS, missing_axe, missing_chromium


@pytest.fixture(scope="session")
def chromium_ready() -> None:
    """Skip (or under CI=true, fail) when the browser tests cannot run on this machine."""
    reason = missing_chromium()
    if reason is None:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"browser tests cannot run under CI: {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="module")
def axe_ready() -> None:
    """Skip the accessibility audit without axe-core (under CI=true, fail instead)."""
    reason = missing_axe()
    if reason is None:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"the accessibility audit cannot run under CI: {reason}", pytrace=False)
    pytest.skip(reason)


# Module scope, not session: while Playwright's sync driver is open, its event loop counts as
# running in this thread, and the asyncio tests of later folders could not start theirs.
@pytest.fixture(scope="module")
def playwright(chromium_ready: None) -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="module")
def browser(playwright) -> Iterator[object]:
    """Chromium from Debian; Playwright gives it a fresh temporary user-data-dir."""
    browser = playwright.chromium.launch(
        executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
    )
    yield browser
    browser.close()


@pytest.fixture(scope="module")
def pwa_server(chromium_ready: None, new_database: Callable[[], str]) -> Iterator[Server]:
    """The service suite's server process (API, /live and the PWA) on a fresh database."""
    server = Server(new_database()).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def head_api(pwa_server: Server) -> Api:
    """The head judge, logged in over HTTP."""
    return Api(pwa_server.base).login()


@pytest.fixture
def viewport() -> dict[str, int]:
    """Override in a test (parametrize) for another size; 360×640 is the smallest we support."""
    return {"width": 360, "height": 640}


def new_context(browser, base_url: str, viewport: dict[str, int]) -> object:
    """A fresh browser context (a tablet: touch, English) on `base_url`."""
    # bypass_csp: Playwright polls a wait_for_function *expression* with eval(), which the
    # faces' CSP (script-src 'self') forbids. test_csp.py opens the faces under the real CSP.
    return browser.new_context(
        base_url=base_url, viewport=viewport, locale="en-GB", has_touch=True, bypass_csp=True
    )


@pytest.fixture
def context(browser, pwa_server: Server, viewport: dict[str, int]) -> Iterator[object]:
    ctx = new_context(browser, pwa_server.base, viewport)
    yield ctx
    ctx.close()


@pytest.fixture
def page(context) -> Iterator[object]:
    """A page that fails its test on any uncaught script error."""
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    assert not errors, errors


@pytest.fixture
def persistent(playwright, pwa_server: Server) -> Iterator[Callable[[Path], object]]:
    """Launch Chromium on a given profile dir: a real (not incognito) browser that restarts."""
    opened = []

    def launch(profile: Path):
        context = playwright.chromium.launch_persistent_context(
            str(profile),
            executable_path=str(CHROMIUM),
            headless=True,
            args=CHROMIUM_ARGS,
            base_url=pwa_server.base,
            bypass_csp=True,  # as `context`
        )
        opened.append(context)
        return context

    yield launch
    for context in opened:
        context.close()


# The hall network (issue 40): one `tableside serve` with HTTPS (the venue CA it made, also
# for hall.test) and plain HTTP beside it, and one Chromium that maps hall.test to 127.0.0.1
# and trusts that CA, shared by the tests of a module that need them.
@pytest.fixture(scope="module")
def hall_server(chromium_ready: None, new_database, tmp_path_factory) -> Iterator[object]:
    from support.hall import HallServer

    folder = tmp_path_factory.mktemp("hall")
    server = HallServer(new_database(), folder / "keys", folder / "serve.log").start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def hall_browser(playwright, hall_server) -> Iterator[object]:
    """Chromium as a tablet on the hall wifi that installed the venue CA from /setup."""
    from support.hall import NAMES, STRANGER

    mapped = (*NAMES, STRANGER)
    args = [
        *CHROMIUM_ARGS,
        "--host-resolver-rules=" + ", ".join(f"MAP {name} 127.0.0.1" for name in mapped),
        f"--ignore-certificate-errors-spki-list={hall_server.spki()}",
    ]
    browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=args)
    yield browser
    browser.close()


@pytest.fixture(scope="module")
def hall_api(hall_server) -> Api:
    """The head judge over HTTPS, trusting the venue CA."""
    return Api(hall_server.api, verify=hall_server.trust()).login()


@pytest.fixture
def hall_tablet(hall_browser, viewport: dict[str, int]) -> Iterator[Callable[[str], object]]:
    """`hall_tablet(origin)`: a fresh tablet (its own storage, service worker and HSTS) on
    `origin`; every one closed at the end."""
    opened = []
    yield lambda origin: opened.append(new_context(hall_browser, origin, viewport)) or opened[-1]
    for ctx in opened:
        ctx.close()
