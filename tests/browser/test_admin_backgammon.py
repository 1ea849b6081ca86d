"""A 16-player backgammon Swiss (KSI) through the TD's console in Chromium: the guide form set
to backgammon (korona-only fields gone, match lengths per round), the entry list, check-in,
the draw, every call from the Tables screen and every pairing from the Draw screen; round 1 is
played on the board by posting backgammon commands (the simulator's legal moves), in later
rounds one player of each match is late past half the length (KSI 2.2.4) — the console's part is
the same and the test stays short; results flow back; the standings show match points and
points won, no pucks, and the TD publishes them; the spectators' page shows them alike. (The
16-player single elimination with consolation, every match played out, runs over HTTP:
tests/competition/test_competition_backgammon.py)"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from support.backgammon_play import play_calls
from support.competition_play import Comp

from .harness import screenshot
from .test_admin_console import log_in

pytestmark = pytest.mark.long  # started first under `make test` (tests/conftest.py)

PLAYERS = 16
TABLES = 8
ROUNDS = 4


def set_up_guide(page) -> None:
    """The guide form for backgammon: what korona alone has disappears, KSI is the rule."""
    page.fill("#f-name", "Reykjavík Open")
    assert page.locator("#f-games").is_visible()
    page.select_option("#f-sport", "backgammon")
    for korona_only in ("#f-games", "#f-scale", "#f-time-cap", "#f-play-all", "#f-team"):
        assert not page.locator(korona_only).is_visible(), korona_only
    assert page.eval_on_selector_all("#f-ruleset option", "o => o.map(x => x.value)") == ["KSI"]
    assert page.locator("#f-discipline").input_value() == "open_singles"
    assert not page.locator("[data-tie-break=pucks_diff]").is_visible()
    page.select_option("#f-format", "swiss")
    page.fill("#f-rounds", str(ROUNDS))
    page.fill("#f-bg-lengths", "1, 1, 3")
    screenshot(page, "admin-backgammon-guide")
    page.click("[data-create]")
    page.wait_for_selector("[data-competition-name]")


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 800}])  # the TD's laptop
def test_sixteen_players_backgammon_through_the_console(page, head_api, viewport):
    log_in(page, "head", "head-secret-1")
    set_up_guide(page)
    comp = Comp(head_api, page.evaluate("new URLSearchParams(location.hash.slice(1)).get('c')"))
    guide = comp.settled()["guide"]
    assert (guide["sport"], guide["ruleset"]) == ("backgammon", "KSI")
    assert guide["settings"]["lengths"] == [1, 1, 3] and guide["format"] == "swiss"
    people = (f"Leikmaður {i:02d}; {1970 + i}; {'MF'[i % 2]}; Reykjavík" for i in range(PLAYERS))
    page.fill("#f-entry-list", "\n".join(people))
    page.click("[data-entry-list] button[type=submit]")
    page.wait_for_function(f"document.querySelectorAll('[data-entrant]').length === {PLAYERS}")
    page.click("[data-check-in-all]")
    page.wait_for_function(
        f"document.querySelectorAll('[data-status=checked_in]').length === {PLAYERS}"
    )
    page.click("[data-tab=rounds]")
    page.click("[data-action=draw]")
    page.click("[data-tab=tables]")
    page.fill("#f-table-count", str(TABLES + 4))  # a hall where earlier tests hold a few
    page.dispatch_event("#f-table-count", "change")
    rng = random.Random(16)
    for number in range(1, ROUNDS + 1):
        play_round(page, comp, head_api, rng, number)
    check_standings(page, comp)


def play_round(page, comp: Comp, head_api, rng: random.Random, number: int) -> None:
    """Call the round from the Tables screen, play it, pair the next from the Draw screen."""
    page.click("[data-tab=tables]")
    page.click("[data-action=call_next]")
    page.wait_for_function(f"document.querySelectorAll('[data-state=waiting]').length === {TABLES}")
    calls = comp.settled()["calls"]
    away = {} if number == 1 else {c["match_id"]: "late" for c in calls}
    ends = play_calls(comp, head_api, rng, away)
    lengths = {e["state"]["length"] for e in ends.values()}
    assert lengths == {3 if number >= 3 else 1}
    page.click("[data-tab=rounds]")
    page.wait_for_selector(f"[data-round-status=complete][data-rounds='{number}']", timeout=30_000)
    if number < ROUNDS:
        page.click("[data-action=pair_next]")
        page.wait_for_selector(f"[data-round='{number + 1}']")


def check_standings(page, comp: Comp) -> None:
    """Match points are match wins; the points column is the backgammon points; publish."""
    doc = comp.settled()
    page.click("[data-tab=standings]")
    shown = shown_rows(page)
    wins = {e["id"]: 0 for e in doc["entrants"]}
    for r in doc["results"].values():
        wins[r["a"] if r["a_games"] else r["b"]] += 1
    assert {e: p for e, p, _ in shown} == wins and sum(wins.values()) == ROUNDS * PLAYERS // 2
    won = sum(int(g.split(":")[0]) for _, _, g in shown)
    assert won >= 8  # round 1 on the board: at least a point per match
    heads = page.locator("[data-standings] thead th").all_inner_texts()
    assert "Points won : lost" in heads and not any("Pucks" in h for h in heads)
    assert shown[0][0] in doc["placings"][0]
    screenshot(page, "admin-backgammon-standings")
    page.click("[data-action=finish]")
    page.click("[data-confirm=finish]")  # the dialog says what follows
    page.wait_for_selector("[data-action=finish][disabled]")
    assert comp.settled()["finished"]
    with page.expect_download() as got:  # the TD's report to KSI (1.7.5, 5.6), signed in
        page.click("[data-export=federation-report]")
    report = got.value
    assert report.suggested_filename == f"report-{comp.id}-en.pdf"
    assert Path(report.path()).read_bytes().startswith(b"%PDF")
    check_spectators(page, comp)


def shown_rows(page) -> list[tuple[str, float, str]]:
    """The console's standings rows: entrant, match points, points won : lost."""
    rows = page.locator("[data-standings] tbody tr")
    rows.nth(PLAYERS - 1).wait_for()
    return [
        (
            row.get_attribute("data-entrant"),
            float(row.locator("[data-points]").get_attribute("data-points")),
            row.locator("[data-games]").inner_text(),
        )
        for row in rows.all()
    ]


def check_spectators(page, comp: Comp) -> None:
    """The spectators' page shows the same standings in the same words."""
    page.goto(f"/?competition={comp.id}")
    page.locator(f"[data-standings] tbody tr >> nth={PLAYERS - 1}").wait_for()
    heads = page.locator("[data-standings] thead th").all_inner_texts()
    assert "Points won : lost" in heads and not any("Pucks" in h for h in heads)
