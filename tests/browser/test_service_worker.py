"""The service worker: every face opens offline from the versioned cache; the API never does."""

from __future__ import annotations

import httpx

FACES = ["/", "/judge", "/judge?table=4", "/audit", "/audit/match/3f1c", "/screen", "/admin"]


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
        assert page.locator("[data-placeholder]").is_visible()
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
