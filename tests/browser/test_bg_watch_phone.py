"""Issue 44, point 7 on `/watch` at 360 px: a player's whole name shows (it wraps, it is not
cut to "Gu…"), and the borne-off count "15" stays one number on one line. The match is a
real one (the .mat corpus), imported with Icelandic names."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from .harness import assert_no_horizontal_overflow, screenshot

MAT = Path(__file__).parents[1] / "backgammon" / "data" / "matches" / "galaxy-8771518.mat"
NAMES = ("Guðrún Jónsdóttir", "Sigurður Þórsson")
SHOWN = """() => {
  const root = document.querySelector('bg-board').shadowRoot;
  const names = [...root.querySelectorAll('.player .name')].map((n) =>
    [n.textContent, n.scrollWidth <= n.clientWidth + 1]);
  const trays = [...root.querySelectorAll('.tray .count')].map((c) =>
    [c.textContent, c.getBoundingClientRect().height / parseFloat(getComputedStyle(c).lineHeight)]);
  return { names, trays };
}"""


@pytest.mark.parametrize("viewport", [{"width": 360, "height": 740}], ids=["360"])
def test_whole_names_and_a_borne_off_fifteen_on_a_phone(page, head_api, viewport) -> None:
    text = MAT.read_text()
    header = next(line for line in text.splitlines() if line.count(" : ") == 2)
    text = text.replace(header, f" {NAMES[0]} : 0                        {NAMES[1]} : 0")
    body = {"command_id": str(uuid.uuid4()), "text": text}
    r = head_api.http.post("/api/backgammon/matches/import", json=body, headers=head_api.headers())
    assert r.status_code == 201, r.text
    page.goto(f"/watch?match={r.json()['match_id']}")
    page.wait_for_selector("section.spectator[data-live=true]")
    page.wait_for_function("document.querySelector('bg-board')?.shadowRoot?.querySelector('.tray')")
    shown = page.evaluate(SHOWN)
    assert sorted(n for n, _ in shown["names"]) == sorted(NAMES)
    assert all(whole for _, whole in shown["names"]), shown["names"]  # not cut to "Gu…"
    fifteen = [lines for count, lines in shown["trays"] if count == "15"]
    assert fifteen and all(lines < 1.5 for lines in fifteen), shown["trays"]  # one line
    assert_no_horizontal_overflow(page)
    screenshot(page, "bg-watch-360-names")
