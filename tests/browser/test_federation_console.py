"""The head judge's console and the federation (issue 49, point 3; decision 0168): once the
federation acknowledged the store, the console says "witnessed by the federation at HH:MM,
position N" where it warned "no witness outside this machine yet"; after the owner's rewrite
the federation refused as a fork, the console turns red. In et, lv, en, is, at phone and
desk sizes, no English on the other languages."""

from __future__ import annotations

import json

import pytest
from support.federation import (
    caught_up,
    enrolment_code,
    federation_server,
    new_federation_database,
    rewrite_result,
    status,
    venue_env,
)
from support.harness import ADMIN, Api, Server, wait_for
from support.recorded import record_match
from support.words import raw_codes

from .admin_helpers import admin_login
from .conftest import new_context
from .harness import ROOT, screenshot

LANGUAGES = ("en", "et", "lv", "is")


def words(lang: str) -> dict[str, str]:
    return json.loads((ROOT / "pwa" / "i18n" / f"admin.{lang}.json").read_text("utf-8"))


def said(page, selector: str, lang: str) -> str:
    """The banner's words once the console speaks `lang`."""
    page.evaluate(f"import('/js/i18n.js').then((m) => m.i18n.set('{lang}'))")
    page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)
    return page.locator(selector).inner_text()


def before_blank(template: str) -> str:
    return template.split("{")[0].strip()


# what the console shows: its banner, and the words it says them in
SAYS = {
    "witnessed": ("[data-witness-source=federation]", "admin.witness.federation"),
    "forked": ("[data-federation=forked]", "admin.federation.forked"),
}


def console_says(browser, venue: Server, viewport: dict, what: str) -> list[str]:
    """The head judge's console's banner `what`, in each language, checked against its
    catalogue's words and for English on the other languages; its texts."""
    selector, key = SAYS[what]
    context = new_context(browser, venue.base, viewport)
    try:
        page = context.new_page()
        admin_login(page, *ADMIN)
        page.wait_for_selector(f"{selector}:not([hidden])")
        texts = []
        for lang in LANGUAGES:
            text = said(page, selector, lang)
            assert text.startswith(before_blank(words(lang)[key])), (lang, text)
            assert lang == "en" or raw_codes(text, lang) == [], (lang, text)
            texts.append(text)
        screenshot(page, f"federation-{what}-{viewport['width']}")
        return texts
    finally:
        context.close()


@pytest.mark.parametrize(
    "viewport", [{"width": 360, "height": 740}, {"width": 1280, "height": 800}]
)
def test_the_console_says_witnessed_by_the_federation_then_red_on_a_fork(
    browser, pg_server_url, new_database, tmp_path, viewport
) -> None:
    venue_url, fed_url = new_database(), new_federation_database(pg_server_url)
    fed = federation_server(fed_url, tmp_path).start()
    uplink = tmp_path / "uplink"
    env = venue_env(fed.base, enrolment_code(fed.base), uplink)
    try:
        venue = Server(venue_url, env=env).start()
        try:
            m1 = record_match(Api(venue.base).login(), table=3, games=1).match_id
            wait_for(lambda: caught_up(uplink, venue_url), timeout=60)
            position = status(uplink)["position"]
            for text in console_says(browser, venue, viewport, "witnessed"):
                assert f" {position}" in text, text
        finally:
            venue.stop()
        rewrite_result(venue_url, m1)
        venue = Server(venue_url, env=env).start()
        try:
            wait_for(lambda: status(uplink).get("state") == "forked", timeout=60)
            assert len(console_says(browser, venue, viewport, "forked")) == len(LANGUAGES)
        finally:
            venue.stop()
    finally:
        fed.stop()
