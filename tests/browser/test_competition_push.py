"""A competition's result is pushed (issue 15): when a match ends, the spectator's competition
page and the TD console show the result without a reload and without a timer asking for it.

Every page is instrumented before its scripts run: a fetch started from inside a
setTimeout/setInterval callback is counted, and every /api request after the first paint is
recorded. The spectator page must make none at all; the console only the table reads the feed
itself triggers (a match on a table started or ended), never the competition documents.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from support.competition_play import Comp, Tables, player, wait_results
from support.harness import Api

from .test_admin_console import log_in

NAMES = ["Mari Tamm", "Liis Mets"]

# The faces' deliberate background watches, on slow timers of their own and not about the
# competition: the console's standby warning (GET /health every 10 s, issue 33) and the
# checkpoint witness (every 5 minutes, issue 29), the demo's held-match notice (GET /api/demo,
# asked once where no demo runs). On a loaded machine this test outlives 10 s.
BACKGROUND = ("/health", "/api/checkpoints/latest", "/api/demo")

# Marks the time inside timer callbacks, and counts the fetches started there (but the
# background watches above).
TIMERS = """
(() => {
  const background = ["/health", "/api/checkpoints/latest", "/api/demo"];
  window.__timerFetches = 0;
  let inTimer = 0;
  const wrap = (original) => (fn, ...rest) => original((...args) => {
    inTimer += 1;
    try { return typeof fn === "function" ? fn(...args) : undefined; } finally { inTimer -= 1; }
  }, ...rest);
  window.setTimeout = wrap(window.setTimeout.bind(window));
  window.setInterval = wrap(window.setInterval.bind(window));
  const fetch = window.fetch.bind(window);
  window.fetch = (...args) => {
    const path = new URL(String(args[0]?.url ?? args[0]), location.href).pathname;
    if (inTimer && !background.includes(path)) window.__timerFetches += 1;
    return fetch(...args);
  };
})();
"""


@pytest.fixture(scope="module")
def duel(head_api: Api, pwa_server) -> Comp:
    comp = Comp.create(
        head_api, {"name": "Tõukeliiga", "format": "round_robin", "games_per_match": 1}
    )
    comp.enter([(f"p{i}", [player(name)]) for i, name in enumerate(NAMES, 1)])
    comp.do({"type": "MakeDraw", "seed": 5})
    comp.do({"type": "CallNextMatches", "free_tables": [61]})
    return comp


def watch_api(page) -> list[str]:
    """Every /api request the page makes from now on."""
    seen: list[str] = []
    page.on("request", lambda r: seen.append(r.url) if _about_the_competition(r.url) else None)
    return seen


def _about_the_competition(url: str) -> bool:
    return "/api/" in url and urlsplit(url).path not in BACKGROUND


def test_a_result_is_pushed_to_spectators_and_the_console(
    browser, pwa_server, head_api: Api, duel: Comp
) -> None:
    contexts = [
        browser.new_context(base_url=pwa_server.base, bypass_csp=True, viewport=size)
        for size in ({"width": 360, "height": 640}, {"width": 1280, "height": 800})
    ]
    spectator, console = (c.new_page() for c in contexts)
    try:
        for page in (spectator, console):
            page.add_init_script(TIMERS)
        spectator.goto(f"/?competition={duel.id}")
        spectator.wait_for_selector("table.standings tbody tr")
        spectator.wait_for_selector(".match-card[data-table='61']")
        log_in(console, "head", "head-secret-1")
        console.wait_for_selector("[data-competitions]")
        console.goto(f"/admin#c={duel.id}")
        console.click("[data-tab=rounds]")
        console.wait_for_selector("[data-round='1'] [data-match]")
        spectator.wait_for_timeout(1500)  # the first paint is done, and a while of quiet
        requests = {"spectator": watch_api(spectator), "console": watch_api(console)}
        points = "document.querySelectorAll('table.standings [data-entrant] td:nth-child(3)')"
        assert spectator.evaluate(f"[...{points}].map((td) => td.textContent)") == ["0", "0"]
        assert console.locator("[data-round='1'] [data-match] td").nth(3).inner_text() == "–"

        tables = Tables(pwa_server, head_api, pwa_server.database_url, seed=6)
        try:
            assert tables.play_calls(duel) == 1
        finally:
            tables.close()
        wait_results(duel, 1)

        spectator.wait_for_function(
            f"[...{points}].some((td) => td.textContent !== '0')", timeout=10000
        )
        console.wait_for_function(
            "document.querySelector(\"[data-round='1'] [data-match] td:nth-child(4)\")"
            ".textContent.includes(':')",
            timeout=10000,
        )
        console.click("[data-tab=standings]")
        console.wait_for_selector("[data-standings] [data-points]")
        for page in (spectator, console):
            assert page.evaluate("window.__timerFetches") == 0
            assert page.evaluate("performance.getEntriesByType('navigation').length") == 1
        assert requests["spectator"] == []
        competition_reads = [u for u in requests["console"] if "/api/competitions" in u]
        assert competition_reads == [], competition_reads
        assert all("min_position=" in u for u in requests["console"]), requests["console"]
    finally:
        for c in contexts:
            c.close()
