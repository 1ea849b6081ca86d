"""Issue 44, point 7 on a phone at 360 px: on `/watch` a player's whole name shows (it wraps,
it is not cut to "Gu…") and the borne-off count "15" stays one number on one line (the match
is one GNU Backgammon played, imported with Icelandic names); on the recorder a refusal
is read whole."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from .bg_helpers import BgMatch, fill_td, open_recorder, send_td
from .harness import assert_no_horizontal_overflow, screenshot

MAT = Path(__file__).parents[1] / "backgammon" / "data" / "gnubg_5pt.mat"  # written by gnubg here
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
    # the widest count a tray shows, in its place, whatever this match's last board left there
    page.evaluate(
        "document.querySelector('bg-board').shadowRoot.querySelector('.tray .count')"
        ".textContent = '15'"
    )
    shown = page.evaluate(SHOWN)
    assert sorted(n for n, _ in shown["names"]) == sorted(NAMES)
    assert all(whole for _, whole in shown["names"]), shown["names"]  # not cut to "Gu…"
    fifteen = [lines for count, lines in shown["trays"] if count == "15"]
    assert fifteen and all(lines < 1.5 for lines in fifteen), shown["trays"]  # one line
    assert_no_horizontal_overflow(page)
    screenshot(page, "bg-watch-360-names")


@pytest.mark.parametrize("viewport", [{"width": 360, "height": 740}], ids=["360"])
def test_a_refusal_is_read_whole_on_a_phone(page, head_api, viewport) -> None:
    """Issue 44: at 360 px the device's refusal banner showed 2 of its 4 lines; all show."""
    match = BgMatch(head_api, length=5)
    open_recorder(page, match)
    page.click("[data-td] summary")
    send_td(page, "pause", side="A")
    fill_td(page, "pause", side="A")
    page.click("[data-td-send=pause]")  # one pause each in a 5-point match (KSI 2.2.2)
    page.wait_for_selector(".bg-banner.tone-problem")
    whole = page.eval_on_selector(".bg-banner", "b => b.scrollHeight <= b.clientHeight + 1")
    lines = page.eval_on_selector(
        ".bg-banner", "b => Math.round(b.clientHeight / parseFloat(getComputedStyle(b).lineHeight))"
    )
    assert whole and lines >= 2, lines
