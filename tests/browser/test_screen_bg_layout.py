"""Issue 53: the venue screen's backgammon card was unreadable — its names column 21 px wide (one
letter a line) and a second card 0 px wide, at 1920, 1366, 1280 and 360 px, while the test
before checked only the text. Two live backgammon matches of a KSI competition beside a korona
match: on the screen's backgammon slide at 1920 and 1280 every player's name stands on one
line and both cards are at least a third of the screen's width (at 360 too)."""

from __future__ import annotations

import pytest

from .test_screen_bg_competition import _called

KORONA_TABLE = 86
BG_TABLES = [87, 88]
NAMES = ("Guðrún Ásta Jónsdóttir", "Þórður Sigurðsson", "Hildur Björk Einarsdóttir", "Kári")

# Once the backgammon slide is on show (the screen turns every second): each visible card's
# width, and for each name it shows, on how many lines the name's letters stand.
MEASURE = """(names) => {
  const box = document.querySelector('.screen-bg-box');
  if (!box || box.hidden) return null;
  const rows = [...document.querySelectorAll('.screen-bg [data-bg-match]')]
    .filter((row) => !row.hidden);
  if (rows.length < 2) return null;
  const lines = (row, name) => {
    const walk = document.createTreeWalker(row, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      const at = n.textContent.indexOf(name);
      if (at < 0) continue;
      const range = document.createRange();
      range.setStart(n, at);
      range.setEnd(n, at + name.length);
      return new Set([...range.getClientRects()].filter((r) => r.width > 0)
        .map((r) => Math.round(r.top))).size;
    }
    return 0;
  };
  return {
    width: innerWidth,
    cards: rows.map((row) => ({
      width: row.getBoundingClientRect().width,
      names: names.filter((name) => row.textContent.includes(name))
        .map((name) => [name, lines(row, name)]),
    })),
  };
}"""


@pytest.fixture(scope="module")
def hall(head_api) -> list[str]:
    """A korona match on its table; a KSI competition's first round called to two tables."""
    r = head_api.create(KORONA_TABLE, ["Mari Tamm"], ["Jaan Kask"], games=3)
    assert r.status_code == 201, r.text
    return _called(head_api, NAMES, BG_TABLES)[1:]


SIZES = [
    {"width": 1920, "height": 1080},
    {"width": 1280, "height": 720},
    {"width": 360, "height": 740},
]


@pytest.mark.parametrize("viewport", SIZES, ids=["1920", "1280", "360"])
def test_two_backgammon_cards_beside_korona_keep_every_name_on_one_line(
    page, hall, viewport
) -> None:
    page.goto("/screen?every=1")
    page.wait_for_selector(f".screen .match-card[data-table='{KORONA_TABLE}']", state="attached")
    for stream in hall:
        page.locator(f"[data-bg-match='{stream}']").wait_for(state="attached")
    seen = page.wait_for_function(MEASURE, arg=list(NAMES), timeout=20_000).json_value()
    cards = seen["cards"]
    assert len(cards) == 2, seen
    assert all(card["width"] >= seen["width"] / 3 for card in cards), seen
    shown = [name for card in cards for name, _ in card["names"]]
    assert sorted(shown) == sorted(NAMES), seen  # each card names its two players
    split = [(name, lines) for card in cards for name, lines in card["names"] if lines != 1]
    assert split == [], seen
