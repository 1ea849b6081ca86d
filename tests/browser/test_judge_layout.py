"""The judge face on a phone and a tablet, upright and on its side: screenshots, no sideways
scrolling, every target at least 48 px, every text at least 4.5:1."""

from __future__ import annotations

import pytest

from .harness import assert_no_horizontal_overflow, assert_readable_contrast, screenshot
from .judge_helpers import new_table, open_judge, settle, tap

SMALL_TARGETS = """() => [...document.querySelectorAll('button, input, a')]
  .filter((el) => el.getClientRects().length)
  .map((el) => ({ what: el.outerHTML.slice(0, 60), box: el.getBoundingClientRect() }))
  .filter(({ box }) => box.width < 48 || box.height < 48)
  .map(({ what, box }) => `${what} ${box.width}x${box.height}`)"""
TINY_TEXT = """() => [...document.querySelectorAll('body *')]
  .filter((el) => el.getClientRects().length && el.getBoundingClientRect().width > 1)
  .filter((el) => [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()))
  .filter((el) => parseFloat(getComputedStyle(el).fontSize) < 18)
  .map((el) => el.outerHTML.slice(0, 60))"""


def check(page, name: str) -> None:
    screenshot(page, name)
    assert_no_horizontal_overflow(page)
    assert page.evaluate(SMALL_TARGETS) == []
    assert page.evaluate(TINY_TEXT) == []
    assert_readable_contrast(page)


@pytest.mark.parametrize(
    "viewport",
    [
        {"width": 800, "height": 1280},
        {"width": 360, "height": 640},
        {"width": 640, "height": 360},
        {"width": 1280, "height": 800},
    ],
    ids=["tablet-portrait", "phone-portrait", "phone-landscape", "tablet-landscape"],
)
def test_recording_screens_fit_and_read_well(page, head_api, viewport):
    size = f"{viewport['width']}x{viewport['height']}"
    t = new_table(head_api, ["Mari-Liis Tammsaare-Kõrvits"], ["Jaan Kask"])
    open_judge(page, t["path"])
    check(page, f"judge-{size}-opening")
    page.locator("[data-panel=opening] .side-0").click()
    settle(page)
    tap(page, "pocketed")
    settle(page)
    tap(page, "remark", "slow_play")
    page.locator("dialog[open] button").first.click()
    settle(page)
    page.wait_for_function("window.judge.state.judge?.time_limit?.[0]")
    tap(page, "no_pocket")
    page.wait_for_selector("[data-banner] p")
    check(page, f"judge-{size}-pad")
    tap(page, "foul")
    check(page, f"judge-{size}-foul-picker")
    page.keyboard.press("Escape")


def test_join_screen_without_a_token_says_where_to_start(page):
    page.goto("/judge")
    page.wait_for_selector("[data-notice='judge.join_help']")
    check(page, "judge-360x640-no-token")
