"""A no-show at the table (issue 34, point 3): once reported on the table's card, the card says
the table waits for the head judge's confirmation of the forfeit and confirms it there (it was
only in the Decisions tab). The server's clock is moved by libfaketime past EKML §9(3)'s two
minutes (support/faked_clock.py); the browser keeps the real time."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from support.competition_play import Comp, player
from support.faked_clock import LIB, clock  # noqa: F401 (fixture: the server's moved clock)
from support.harness import Api, Server, wait_for

from .admin_helpers import admin_login


@pytest.fixture(scope="module")
def pwa_server(chromium_ready, module_database_url: str, clock: Path) -> Iterator[Server]:  # noqa: F811
    """This module's server runs on a clock the test moves (the faces are served by it too)."""
    env = {"LD_PRELOAD": str(LIB), "FAKETIME_TIMESTAMP_FILE": str(clock), "FAKETIME_NO_CACHE": "1"}
    srv = Server(module_database_url, env=env).start()
    yield srv
    srv.stop(grace=1)


@pytest.mark.parametrize("lang, words", [("et", "laud ootab"), ("lv", "galds gaida")])
def test_ekml_9_3_the_card_says_the_table_waits_and_confirms_the_forfeit(
    page,
    head_api: Api,
    clock: Path,  # noqa: F811
    lang: str,
    words: str,
) -> None:
    comp = Comp.create(head_api, {"name": f"Hiline {lang}", "format": "round_robin"})
    comp.enter([(f"e{i}", [player(f"Mängija {i}")]) for i in range(1, 5)])
    comp.do({"type": "MakeDraw", "seed": 2})
    table = 1 if lang == "et" else 3
    comp.do({"type": "CallNextMatches", "free_tables": [table]})
    call = next(c for c in comp.settled()["calls"] if c["table"] == table)
    wait_for(lambda: table in {h["table"] for h in head_api.get("/api/hall").json()})
    clock.write_text(f"+{125 * (1 if lang == 'et' else 2)}\n")  # past the 2 minutes

    admin_login(page, "head", "head-secret-1")
    page.goto(f"/admin#c={comp.id}")
    page.wait_for_selector("[data-competition-name]")
    page.click(f"language-picker [data-lang={lang}]")
    page.wait_for_function(f"document.documentElement.lang === '{lang}'")
    page.click("[data-tab=tables]")
    card = page.locator(f"[data-table='{table}']")
    card.locator(f"[data-no-show={call['b']}]").click()
    hint = card.locator(f"[data-no-show-waits={call['b']}]")
    hint.wait_for()
    assert words in hint.inner_text() and "EKML §9(3)" in hint.inner_text()
    assert card.locator("[data-no-show]").count() == 0  # reported once, not offered again
    card.locator(f"[data-forfeit='{call['match_id']}']").click()
    wait_for(lambda: call["match_id"] in comp.settled()["results"], timeout=15)
    assert comp.settled()["results"][call["match_id"]]["forfeit"]
    page.wait_for_selector(f"[data-table='{table}'][data-state=free]")
    # Issue 45: on the screen and the spectators' cards the forfeit read "abandoned 0 : 0".
    forfeit = {"et": "loobumisvõit", "lv": "tehniskais rezultāts"}[lang]
    for path in (f"/screen?competition={comp.id}", f"/?competition={comp.id}"):
        page.goto(path)
        shown = page.locator(f".match-card[data-table='{table}'][data-status=abandoned]")
        shown.wait_for()
        page.wait_for_function(
            "([t, w]) => document.querySelector(`.match-card[data-table='${t}'] .card-status`)"
            ".textContent.includes(w)",
            arg=[table, forfeit],
        )
        # Issue 54: both sides said "–"; the one who was there has the walkover.
        won = {"et": "loobumisvõit", "lv": "bez spēles"}[lang]
        assert shown.locator(".card-games").all_inner_texts() == [won, "–"], path
