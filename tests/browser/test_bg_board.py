"""Issue 12, faces: <bg-board>, the one drawing of a backgammon position (points, bars, trays,
checker counts, cube, dice, score, both clocks, the turn), readable on a phone and a tablet."""

from __future__ import annotations

import pytest

from .bg_helpers import BgMatch
from .harness import assert_no_horizontal_overflow, assert_readable_contrast, screenshot

PAGE = "/__bgboard__"
HTML = """<!doctype html>
<html lang="en" data-i18n-faces="backgammon" data-languages="is en et lv"><head>
<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/css/base.css"><script type="module" src="/js/shell.js"></script>
<script type="module" src="/js/bg-board.js"></script></head>
<body><main class="page"><bg-board></bg-board></main></body></html>"""


def _open(page, doc: dict) -> None:
    page.route(f"**{PAGE}*", lambda route: route.fulfill(body=HTML, content_type="text/html"))
    page.goto(PAGE)
    page.wait_for_selector("html[data-ready=true]")
    page.wait_for_function("() => customElements.get('bg-board')")
    page.evaluate("(doc) => { document.querySelector('bg-board').data = doc; }", doc)


@pytest.fixture(scope="module")
def played(head_api) -> dict:
    """A's opening 3-1 made (8/5 6/5), B doubles, A takes, B rolls 6-4: the board document."""
    m = BgMatch(head_api, length=5, clock=True)
    m.post(
        {"type": "StartGame"},
        {"type": "StartClock", "at_ms": 1_000},
        {"type": "RollOpening", "die_a": 3, "die_b": 1},
        {"type": "PressClock", "side": "B", "at_ms": 1_000},  # A's time runs
        {"type": "Play", "side": "A", "moves": [[8, 5], [6, 5]]},
        {"type": "PressClock", "side": "A", "at_ms": 20_000},
        {"type": "Double", "side": "B"},
        {"type": "Take", "side": "A"},
        {"type": "Roll", "side": "B", "dice": [6, 4]},
    )
    return m.state()["board"]


@pytest.mark.parametrize(
    "viewport", [{"width": 360, "height": 640}, {"width": 800, "height": 1280}], ids=str
)
def test_the_board_draws_the_position_cube_dice_score_and_clocks(page, played, viewport):
    _open(page, played)
    board = page.locator("bg-board")
    # A's numbering: A has 2 on its 5-point (A's point 5), B's 24 is A's point 1.
    assert board.locator("[data-point='5']").get_attribute("data-a") == "2"
    assert board.locator("[data-point='1']").get_attribute("data-b") == "2"
    assert board.locator("[data-point='13']").get_attribute("data-a") == "5"
    assert board.locator("[data-point='12']").get_attribute("data-b") == "5"
    assert board.locator("[data-point='8']").get_attribute("data-a") == "2"
    label = board.locator("[data-point='13']").get_attribute("aria-label")
    assert "5" in label and "Ása" in label
    # the cube: taken at 2, now A's; the dice B rolled; the score; both clocks, B's running
    cube = board.locator("[data-player=A] [data-cube]")
    assert cube.inner_text() == "2" and cube.get_attribute("data-owner") == "A"
    assert board.locator("[data-dice]").get_attribute("data-dice") == "6-4"
    assert board.locator("[data-score=A]").inner_text() == "0"
    assert board.locator("[data-player=B]").get_attribute("class").endswith("turn")
    assert board.locator("[data-clock=A]").inner_text() == "9:53"  # 10 min - (19 s - 12 s delay)
    assert "running" in board.locator("[data-clock=B]").get_attribute("class")
    assert "Bjarni is on turn" in board.locator(".bg").get_attribute("aria-label")
    # readable: nothing sideways, every text 4.5:1, the points wide enough to tap
    assert_no_horizontal_overflow(page)
    assert_readable_contrast(page)
    box = board.locator("[data-point='13']").bounding_box()
    assert box["width"] >= 20 and box["height"] >= 120, box
    screenshot(page, f"bg-board-{viewport['width']}")


def test_a_centred_cube_shows_64_and_marks_make_points_pickable(page, head_api):
    m = BgMatch(head_api, length=3)
    m.post({"type": "StartGame"}, {"type": "RollOpening", "die_a": 6, "die_b": 2})
    _open(page, m.state()["board"])
    board = page.locator("bg-board")
    assert board.locator(".middle [data-cube]").inner_text() == "64"
    assert board.locator("button").count() == 0  # nothing to tap without marks
    page.evaluate(
        """() => { const b = document.querySelector('bg-board');
                   b.marks = { side: 'B', from: [24, 13], to: [], selected: null };
                   window.picked = [];
                   b.addEventListener('pick', (e) => window.picked.push(e.detail.point)); }"""
    )
    assert board.locator("button").count() == 2
    board.locator("button[data-own='24']").click()  # B's 24 is A's point 1
    assert board.locator("button[data-own='24']").get_attribute("data-point") == "1"
    assert page.evaluate("window.picked") == [24]
    # the numbers shown are B's while B is marked
    assert board.locator("[data-point='1'] .num").inner_text() == "24"
