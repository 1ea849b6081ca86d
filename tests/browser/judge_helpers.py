"""Helpers for the judge-face browser tests: open a table from its QR link, tap, settle."""

from __future__ import annotations

import itertools
import time

from support.harness import Api

TABLES = itertools.count(500)


def new_table(head_api: Api, side_a, side_b, **extra) -> dict:
    """A fresh table with a match on it and a judge token: {table, match_id, link, token}."""
    table = next(TABLES)
    issued = head_api.judge_token(table)
    r = head_api.create(table, side_a, side_b, **extra)
    assert r.status_code == 201, r.text
    link = issued["link"]
    return {
        "table": table,
        "match_id": r.json()["match_id"],
        "token": issued["token"],
        "path": link[link.index("/judge") :],
    }


def open_judge(page, path: str) -> None:
    """Open the judge link (what the QR code holds) and wait for the table's board."""
    page.goto(path)
    page.wait_for_selector("html[data-ready=true]")
    page.wait_for_function("window.judge && window.judge.state.shown")  # drawn, not just read
    # and the feed caught up: a first tap lands on the face as it stays, not on one redrawn
    # by the feed's first messages mid-click (the opening went to side B once, under load)
    page.wait_for_selector("[data-live-state=live], [data-live-state=final]")
    page.wait_for_function(SETTLED)


def start_game(
    page, head_api: Api, lang: str = "en", pairs: bool = False, ruleset: str = "EKML", **extra
) -> dict:
    """A fresh singles (or pairs) table under `ruleset` (`extra`: more of the match, e.g.
    games=3) opened on its judge link in `lang`, the opening shot given to side A (for pairs:
    its first listed players), settled; the table's dict."""
    if pairs:
        t = new_table(
            head_api, ["Mari", "Jaan"], ["Ants", "Tiina"], format="pairs", ruleset=ruleset, **extra
        )
    else:
        t = new_table(head_api, ["Mari Tamm"], ["Jaan Kask"], ruleset=ruleset, **extra)
    open_judge(page, t["path"])
    page.click(f"language-picker [data-lang={lang}]")
    page.wait_for_function(f"document.documentElement.lang === '{lang}'")
    page.locator("[data-panel=opening] .side-0").click()
    if pairs:
        page.locator("dialog[open] button[data-value]").first.click()
        page.locator("dialog[open] button[data-value]").first.click()
    settle(page)
    return t


SETTLED = """() => {
  const { state, outbox } = window.judge;
  return state.working === 0 && outbox.queued === 0 && state.pending.length === 0
    && !outbox.held && state.doc && state.doc.version >= state.knownVersion
    && document.getElementById('face').dataset.version === String(state.doc.version)
    && !document.querySelector('dialog[open]');
}"""


def settle(page, timeout: float = 10_000) -> None:
    """Wait until every tap is on the server and the board shows the server's state (drawn,
    not only read: the face draws after the outbox is asked what waits)."""
    page.wait_for_function(SETTLED, timeout=timeout)


GUARD_S = 0.65  # the face asks "record again?" for the same button within 600 ms
_last_tap: dict[int, tuple[str, float]] = {}


def tap(page, act: str, value: str | None = None) -> None:
    """Tap a pad button (data-act), then, for a picker, the choice with data-value — at a
    human pace: the same button twice is tapped at least GUARD_S apart (a stroke takes that
    long), so the face's double-tap guard does not ask (test_judge_tap_guard.py tests it)."""
    last = _last_tap.get(id(page))
    if last and last[0] == act and (wait := GUARD_S - (time.monotonic() - last[1])) > 0:
        time.sleep(wait)
    page.locator(f"main [data-act={act}]").first.click()
    _last_tap[id(page)] = (act, time.monotonic())
    if value is not None:
        page.locator(f"dialog[open] button[data-value='{value}']").click()


def choose(page, value: str) -> None:
    page.locator(f"dialog[open] button[data-value='{value}']").click()


def panel(page) -> str:
    return page.locator("main [data-panel]").first.get_attribute("data-panel")


def turn(page) -> str:
    return page.evaluate("window.judge.state.shown.game.turn")


def last_pucks_together_over_the_zone_line(page) -> None:
    """Each side down to its last puck (the turn passing), then a stroke pocketing both last
    pucks with the striker back over the zone line (EKML §27(4); LV 17.2)."""
    for _ in range(2):
        tap(page, "pocketed_more", "7")
        settle(page)
        tap(page, "no_pocket")
        settle(page)
    tap(page, "foul", "zone_line")
    tap(page, "puck_over", "opponent_pocketed")
    tap(page, "pocketed")
