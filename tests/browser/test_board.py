"""<korona-board>: counts per side, the turn unmistakable, labels for screen readers."""

from __future__ import annotations

import random

from support.harness import Api, wait_for
from support.play import create

from .harness import (
    assert_no_horizontal_overflow,
    assert_readable_contrast,
    open_blank,
    screenshot,
)
from .plan import plan

SHOW = """async (data) => {
  const { boardFromLive } = await import('/js/board.js');
  let board = document.querySelector('korona-board');
  if (!board) {
    board = document.createElement('korona-board');
    document.querySelector('main').append(board);
  }
  board.data = data.live ? boardFromLive(data.live) : data;
  return board.data;
}"""
READ = """() => {
  const root = document.querySelector('korona-board').shadowRoot;
  const side = (i) => root.querySelectorAll(`g[data-side="${i}"] circle`).length;
  return {
    pucks: [side(0), side(1)],
    legend: [...root.querySelectorAll('li')].map((li) => li.textContent),
    turn: [...root.querySelectorAll('li.has-turn')].map((li) => li.dataset.side),
    label: root.querySelector('svg').getAttribute('aria-label'),
  };
}"""
SIDES = {
    "turn": 1,
    "sides": [
        {"name": "Mari Tamm", "on_board": 5, "pocketed": 3, "penalty": 0, "debt": 0},
        {"name": "Jaan Kask", "on_board": 8, "pocketed": 1, "penalty": 1, "debt": 2},
    ],
}


def open_board(page, data: dict) -> dict:
    open_blank(page)
    page.evaluate(SHOW, data)
    return page.evaluate(READ)


def test_counts_turn_and_labels(page) -> None:
    shown = open_board(page, SIDES)
    assert shown["pucks"] == [5, 8]
    assert shown["turn"] == ["1"]
    assert "Jaan Kask: 8 on the board, 1 pocketed, 1 penalty pucks, debt 2" in shown["legend"][1]
    assert "Jaan Kask has the turn" in shown["label"]
    assert "Mari Tamm: 5 on the board, 3 pocketed" in shown["label"]
    assert_no_horizontal_overflow(page)
    assert_readable_contrast(page)
    screenshot(page, "board-360x640")


ROWS = """() => [...document.querySelector('korona-board').shadowRoot
  .querySelectorAll('g[data-row]')].map((g) => g.querySelectorAll('circle').length)"""


def test_ekml_19_1_pairs_board_is_set_out_in_four_rows_of_8(page) -> None:
    full = {"on_board": 16, "pocketed": 0, "penalty": 0, "debt": 0}
    open_board(page, {"turn": 0, "pairs": True, "sides": [full, full]})
    assert page.evaluate(ROWS) == [8, 8, 8, 8]
    open_board(page, {"turn": 0, "pairs": True, "sides": [{**full, "on_board": 11}, full]})
    assert page.evaluate(ROWS) == [8, 3, 8, 8]
    open_board(page, {"turn": 0, "sides": [{**full, "on_board": 8}, {**full, "on_board": 8}]})
    assert page.evaluate(ROWS) == [8, 8]  # singles: each player's row of 8


def test_relabels_in_the_chosen_language(page) -> None:
    open_board(page, SIDES)
    page.locator("language-picker button[data-lang=et]").click()
    page.wait_for_selector("html[lang=et]")
    legend = page.evaluate(READ)["legend"]
    assert "Jaan Kask: mängulaual 8, auku löödud 1, trahviseibe 1, võlg 2" in legend[1]


def test_draws_a_real_live_document(page, pwa_server, head_api) -> None:
    table = 950
    rng = random.Random(3)
    judge = Api(pwa_server.base, head_api.judge_token(table)["token"])
    match_id, view = create(head_api, table, rng)
    bodies, after = plan(view, rng, 8)
    for body in bodies:
        assert judge.command(match_id, body["expected_version"], body["command"]).status_code == 201

    def caught_up():
        doc = Api(pwa_server.base).get(f"/api/matches/{match_id}").json()
        return doc if doc.get("version") == after.version else None

    live = wait_for(caught_up)
    open_board(page, {"live": live})
    data = page.evaluate("document.querySelector('korona-board').data")
    pucks = live["game"]["pucks"]
    assert [s["on_board"] for s in data["sides"]] == [p["on_board"] for p in pucks]
    assert [s["debt"] for s in data["sides"]] == [p["debt"] for p in pucks]
    # Penalty pucks placed this game: the live document carries the engine's count.
    assert [p["placed"] for p in pucks] == [x.placed for x in after.state.game.pucks]
    assert [s["penalty"] for s in data["sides"]] == [p["placed"] for p in pucks]
    assert data["sides"][0]["name"] == " / ".join(live["side_a"])
    turn_side = 0 if live["game"]["turn"] in live["side_a"] else 1
    assert data["turn"] == turn_side
    assert page.evaluate(READ)["pucks"] == [p["on_board"] for p in pucks]
    screenshot(page, "board-live-360x640")
