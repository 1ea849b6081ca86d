"""Issue 12 on a phone (360×640): the recorder's dice entry and main actions fit on the first
screen without scrolling (the board shrinks), and nothing moves under the thumb when the
network drops, when an entry is kept offline, or when it comes back (as on the korona judge
face, tests/browser/test_judge_steady.py)."""

from __future__ import annotations

import pytest

from .bg_helpers import BgMatch, open_recorder, play, tap
from .harness import assert_no_horizontal_overflow, screenshot

OUTSIDE = """(selectors) => selectors.flatMap((s) => [...document.querySelectorAll(s)].map((el) => {
  const r = el.getBoundingClientRect();
  return r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth
    ? `${s} ${Math.round(r.top)}-${Math.round(r.bottom)}` : null; }).filter(Boolean))
  .concat(scrollY ? [`scrolled ${scrollY}`] : [])"""
BOARD_OUTSIDE = """() => [...document.querySelector('bg-board').shadowRoot
  .querySelectorAll('button')].map((el) => el.getBoundingClientRect())
  .filter((r) => r.bottom > innerHeight).length"""
BOXES = """() => [...document.querySelectorAll('main button, bg-board')]
  .filter((el) => el.offsetParent !== null && !el.closest('[data-td], [data-pending-list]'))
  .map((el) => { const r = el.getBoundingClientRect();
    return [el.dataset.action || el.dataset.die || el.dataset.press || el.tagName,
            Math.round(r.x), Math.round(r.y + scrollY),
            Math.round(r.width), Math.round(r.height)]; })"""


@pytest.fixture
def viewport() -> dict[str, int]:
    return {"width": 360, "height": 640}


def _fits(page, *selectors: str) -> None:
    page.evaluate("() => scrollTo(0, 0)")
    assert page.evaluate(OUTSIDE, list(selectors)) == []


@pytest.mark.parametrize("lang", ["is", "en", "et", "lv"])
def test_dice_and_main_actions_fit_a_phone_without_scrolling(page, head_api, lang):
    match = BgMatch(head_api, length=7, clock=True, players=("Sigurbjörg Ástvaldsdóttir", "Bjarni"))
    open_recorder(page, match)
    page.evaluate("(l) => import('/js/i18n.js').then(({ i18n }) => i18n.set(l))", lang)
    tap(page, "[data-action=start-clock]")
    tap(page, "[data-action=start-game]")
    _fits(page, "[data-action=start-game]", "[data-dice-for] [data-die]")
    page.click("[data-dice-for=A] [data-die='3']")
    tap(page, "[data-dice-for=B] [data-die='1']")
    _fits(page, "[data-action=play]", "[data-action=undo-step]", "[data-press]")
    assert page.evaluate(BOARD_OUTSIDE) == 0  # every checker that can move, on the first screen
    play(page, 8, 5, 6, 5)
    _fits(
        page,
        "[data-dice-for=B] [data-die]",
        "[data-action=double]",
        "[data-press]",
        "[data-action=undo]",
    )
    screenshot(page, f"bg-recorder-360x640-{lang}-roll")
    assert_no_horizontal_overflow(page)
    tap(page, "[data-action=double]")
    _fits(page, "[data-action=take]", "[data-action=drop]")


def test_nothing_moves_under_the_thumb_when_the_network_drops(page, context, head_api):
    match = BgMatch(head_api, length=7, clock=True)
    open_recorder(page, match)
    tap(page, "[data-action=start-clock]")
    tap(page, "[data-action=start-game]")
    page.click("[data-dice-for=A] [data-die='3']")
    tap(page, "[data-dice-for=B] [data-die='1']")
    play(page, 8, 5, 6, 5)
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    page.wait_for_timeout(300)
    online = page.evaluate(BOXES)
    assert len(online) >= 9
    context.set_offline(True)
    page.wait_for_selector("sync-badge[data-state=offline]")
    assert page.evaluate(BOXES) == online, "a button moved when the connection dropped"
    page.click("[data-press=A]")  # a clock press kept offline: the pad stays as it was
    page.wait_for_function("document.getElementById('face').dataset.pending === '1'")
    page.wait_for_timeout(300)
    assert page.evaluate(BOXES) == online, "a button moved when an entry was kept offline"
    screenshot(page, "bg-recorder-360x640-offline-press")
    context.set_offline(False)
    page.wait_for_function(
        "document.getElementById('face').dataset.pending === '0'", timeout=20_000
    )
    page.wait_for_selector("sync-badge[data-state=synced]")
    page.wait_for_timeout(300)
    assert page.evaluate(BOXES) == online, "a button moved when the connection came back"
