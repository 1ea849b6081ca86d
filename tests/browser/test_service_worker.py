"""The service worker: every face opens offline from the versioned cache; the API never does."""

from __future__ import annotations

import json
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn
from litestar import Litestar
from support.harness import free_port, wait_for
from tableside.server.pwa import web_routes
from tableside.server.pwa.assets import DEFAULT_PWA_DIR

FACES = [
    "/",
    "/judge",
    "/judge?table=4",
    "/audit",
    "/audit/match/3f1c",
    "/screen",
    "/admin",
    "/backgammon",
]


def install(page) -> None:
    """Open the app once online and wait until the worker controls the page."""
    page.goto("/")
    page.wait_for_selector("html[data-ready=true]")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("navigator.serviceWorker.controller !== null")


def test_every_face_opens_offline(page, context) -> None:
    install(page)
    context.set_offline(True)
    for path in FACES:
        page.goto(path)
        page.wait_for_selector("html[data-ready=true]")  # modules and messages came too
        assert page.locator("#face > *:visible").first.is_visible()  # the face (or its placeholder)
    page.locator("language-picker button[data-lang=et]").click()  # et.json is cached
    page.wait_for_selector("html[lang=et]")


def test_api_and_feed_are_never_answered_from_cache(page, context) -> None:
    install(page)
    assert page.evaluate("fetch('/api/tables').then((r) => r.status)") == 200
    context.set_offline(True)
    failed = page.evaluate("fetch('/api/tables').then(() => false, () => true)")
    assert failed


def test_one_cache_named_after_the_served_version(page, pwa_server) -> None:
    install(page)
    version = httpx.get(pwa_server.base + "/sw.js").text.split('"')[1]
    assert page.evaluate("caches.keys()") == [f"tableside-shell-{version}"]


def test_installable(persistent, tmp_path) -> None:
    """Chromium's own checks (manifest, icons, worker); a kept profile, as incognito never is."""
    browser = persistent(tmp_path / "profile")
    page = browser.pages[0]
    install(page)
    cdp = browser.new_cdp_session(page)
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    assert not cdp.send("Page.getAppManifest").get("errors")


@pytest.fixture
def pwa_copy_served(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """Only web_routes(), over a copy of pwa/ that the test may edit, on a free port.

    The real server always serves the checkout's pwa/, which a test must not touch; this
    needs no database because the shell files are all it serves.
    """
    root = Path(shutil.copytree(DEFAULT_PWA_DIR, tmp_path / "pwa"))
    port = free_port()
    app = Litestar(route_handlers=web_routes(root))
    server = uvicorn.Server(uvicorn.Config(app, port=port, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    wait_for(lambda: server.started)
    yield root, f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)


def test_a_changed_file_reaches_the_tablet_and_the_old_cache_goes(browser, pwa_copy_served):
    root, base = pwa_copy_served
    context = browser.new_context(
        bypass_csp=True,  # as conftest `context`: Playwright evaluates with eval()
        base_url=base,
    )
    try:
        page = context.new_page()
        install(page)
        [old] = page.evaluate("caches.keys()")
        messages = root / "i18n" / "en.json"
        changed = json.loads(messages.read_text("utf-8"))
        changed["face.spectator"] = "Live tables, new edition"
        messages.write_text(json.dumps(changed), encoding="utf-8")

        page.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.update())")
        # The new worker fills its own cache, takes over, and deletes the old one.
        [new] = wait_for(
            lambda: (keys := page.evaluate("caches.keys()")) != [old] and len(keys) == 1 and keys,
            timeout=15,
        )
        assert new.startswith("tableside-shell-")
        page.reload()
        page.wait_for_selector("html[data-ready=true]")
        assert page.locator("h1").inner_text() == "Live tables, new edition"
    finally:
        context.close()
