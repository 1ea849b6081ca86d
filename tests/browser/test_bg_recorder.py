"""Issue 12, faces: the backgammon recorder at /backgammon?match=<id> in Chromium.

A staff member signs in and records: the opening roll (one die each side), plays made by
tapping a checker and a highlighted legal destination (legal destinations from the server's
GET …/plays), a double taken, a later double dropped (game over, the score changes); a refused
resignation shows the problem's detail with its KSI paragraph; the stored events are checked
over the API.
"""

from __future__ import annotations

import pytest

from .bg_helpers import IDLE, VERSION, BgMatch, open_recorder, play, roll, tap
from .harness import (
    assert_no_horizontal_overflow,
    assert_readable_contrast,
    axe_violations,
    press,
    screenshot,
)


def test_a_game_recorded_through_the_face(page, head_api):
    match = BgMatch(head_api, length=5)
    open_recorder(page, match)
    tap(page, "[data-action=start-game]")
    page.click("[data-dice-for=A] [data-die='3']")  # the opening roll: one die each side
    tap(page, "[data-dice-for=B] [data-die='1']")
    board = page.locator("bg-board")
    assert board.locator("[data-dice]").get_attribute("data-dice") == "3-1"
    # A's 3-1: the checkers that can move are buttons; 8 shows 5 and 7 as destinations
    board.locator("button[data-own='8']").click()
    destinations = board.locator("button.to")
    assert sorted(
        int(x) for x in destinations.evaluate_all("els => els.map(e => e.dataset.own)")
    ) == [5, 7]
    board.locator("button[data-own='5']").click()
    assert page.locator("[data-partial]").inner_text().endswith("8/5")
    assert board.locator("[data-point='8']").get_attribute("data-a") == "2"  # shown moved
    assert board.locator("[data-point='5']").get_attribute("data-a") == "1"
    screenshot(page, "bg-recorder-360-mid-play")
    assert page.locator("[data-action=play]").is_disabled()  # one die still to play
    page.click("[data-action=undo-step]")  # a partial play undone before sending
    assert board.locator("[data-point='8']").get_attribute("data-a") == "3"
    play(page, 8, 5, 6, 5)
    assert board.locator("[data-point='5']").get_attribute("data-a") == "2"
    assert "8/5 6/5" in page.locator("[data-banner]").inner_text()
    # B doubles, A takes: the cube goes to A's side at 2
    tap(page, "[data-action=double]")
    tap(page, "[data-action=take]")
    assert board.locator("[data-player=A] [data-cube]").inner_text() == "2"
    assert page.locator("[data-action=double]").count() == 0  # B no longer holds the cube
    roll(page, "B", 6, 4)
    play(page, 24, 18, 13, 9)
    # no resignation is offered while checkers can be hit (KSI 4.5)
    assert page.locator("[data-resign]").count() == 0
    roll(page, "A", 5, 2)
    play(page, 13, 8, 13, 11)
    roll(page, "B", 2, 1)
    play(page, 13, 11, 6, 5)
    # A redoubles to 4, B drops: A wins the cube's 2 points
    assert "4" in page.locator("[data-action=double]").inner_text()
    tap(page, "[data-action=double]")
    tap(page, "[data-action=drop]")
    assert board.locator("[data-score=A]").inner_text() == "2"
    assert page.locator("[data-action=start-game]").inner_text() == "Start game 2"
    assert_no_horizontal_overflow(page)
    screenshot(page, "bg-recorder-360")
    # what the server stored, in order, with its paragraphs
    events = [e["event"] for e in match.events()]
    types = [e["type"] for e in events]
    assert (
        types.index("BgDoubleTaken") < types.index("BgDoubleDropped") < types.index("BgGameEnded")
    )
    plays = [(e["side"], e["moves"]) for e in events if e["type"] == "BgPlayRecorded"]
    assert plays == [
        ("A", [[8, 5], [6, 5]]),
        ("B", [[24, 18], [13, 9]]),
        ("A", [[13, 8], [13, 11]]),
        ("B", [[13, 11], [6, 5]]),
    ]
    ended = events[types.index("BgGameEnded")]
    assert ended["winner"] == "A" and ended["points"] == 2 and ended["score"] == [2, 0]
    assert ended["rule"] == "KSI 4.4.3"
    assert all(e["rule"].startswith("KSI ") for e in events)
    assert all(r["meta"].get("discipline") == "backgammon" for r in match.events())


@pytest.mark.usefixtures("axe_ready")
@pytest.mark.parametrize("viewport", [{"width": 800, "height": 1280}], ids=["tablet"])
def test_the_clock_and_icelandic_on_a_tablet(page, head_api, viewport):
    """A clocked match: the clock started and pressed from the face (device time stored with
    each press); the face in Icelandic; axe-core finds nothing on the pad mid-play."""
    match = BgMatch(head_api, length=3, clock=True)
    match.post({"type": "StartGame"}, {"type": "RollOpening", "die_a": 6, "die_b": 5})
    open_recorder(page, match)
    page.click("language-picker [data-lang=is]")
    page.wait_for_selector("html[lang=is]")
    assert page.locator("[data-action=start-clock]").inner_text() == "Ræsa klukkuna"
    tap(page, "[data-action=start-clock]")
    assert page.locator("[data-time=A]").inner_text() == "6:00"  # 2 min a point (KSI 3.5.5)
    tap(page, "[data-press=B]")  # B starts A's time
    assert page.locator("[data-press=B]").is_disabled()
    assert "running" in page.locator("[data-press=A]").get_attribute("class")
    page.locator("bg-board button[data-own='24']").click()
    assert page.locator("[data-partial]").inner_text() == "Leikur: enginn leikur"
    assert "Veldu mann" in page.locator(".bg-pad .hint").inner_text()
    assert_readable_contrast(page)
    assert axe_violations(page) == []
    play(page, 18, 18, 13)  # 24 is selected: on to 18, then 18 to 13
    tap(page, "[data-press=A]")
    assert "ýtir á klukkuna" in page.locator("[data-banner]").inner_text()
    assert "KSI 4.1.6.2" in page.locator("[data-banner]").inner_text()
    pressed = [e for e in match.events() if e["type"] == "BgClockPressed"]
    assert [p["event"]["side"] for p in pressed] == ["B", "A"]
    assert pressed[1]["event"]["at_ms"] > pressed[0]["event"]["at_ms"]
    assert pressed[1]["device_time"]  # the device's own time stored with the press
    # undo is one tap plus confirm: A's press is taken back, A's time runs again
    page.click("[data-action=undo]")
    page.click("[data-action=undo-no]")  # kept
    page.click("[data-action=undo]")
    tap(page, "[data-action=undo-yes]")
    assert "running" in page.locator("[data-press=A]").get_attribute("class")
    assert match.events()[-1]["type"] == "BgEntryUndone"
    screenshot(page, "bg-recorder-800-is")


RACE = [0, 3, 3, 3, 2, 2, 2] + [0] * 19  # 15 checkers in the home board: no contact


def test_a_resignation_answered_on_the_face(page, head_api):
    """Once no checker can be hit, A resigns a single; B accepts; B scores the point."""
    match = BgMatch(head_api, length=3)
    match.post(
        {"type": "StartGame", "position": [RACE, RACE]},
        {"type": "RollOpening", "die_a": 3, "die_b": 1},
    )
    open_recorder(page, match)
    page.click("[data-resign] summary")
    tap(page, "[data-resign-side=A][data-resign-kind=single]")
    assert "KSI 4.5" in page.locator("[data-banner]").inner_text()
    assert page.locator("[data-action=accept-resign]").inner_text() == "Bjarni accepts"
    tap(page, "[data-action=accept-resign]")
    assert page.locator("bg-board [data-score=B]").inner_text() == "1"
    ended = [e["event"] for e in match.events() if e["type"] == "BgGameEnded"]
    assert ended == [
        {
            "type": "BgGameEnded",
            "rule": "KSI 4.5",
            "winner": "B",
            "kind": "single",
            "by": "concession",
            "cube": 1,
            "points": 1,
            "score": [0, 1],
        }
    ]


def test_the_winner_reports_and_the_td_confirms_the_result(page, head_api):
    """A 1-point match ended by a dropped double; reported and confirmed on the face (KSI 4.6)."""
    match = BgMatch(head_api, length=1)
    match.post(
        {"type": "StartGame"},
        {"type": "RollOpening", "die_a": 3, "die_b": 1},
        {"type": "Play", "side": "A", "moves": [[8, 5], [6, 5]]},
        {"type": "Double", "side": "B"},
        {"type": "Drop", "side": "A"},
    )
    open_recorder(page, match)
    assert page.locator(".bg-pad h2").inner_text() == "Match over: Bjarni wins 0:1"
    tap(page, "[data-action=report-result]")
    page.click("[data-action=undo]")  # asks first; meanwhile the TD confirms at the desk …
    match.version = page.evaluate(VERSION)
    match.post({"type": "ConfirmResult"})
    page.click("[data-action=undo-no]")  # … and the face, idle again, reads it by itself
    page.wait_for_selector("[data-result=confirmed]", timeout=8000)
    page.wait_for_selector("[data-result=confirmed]")
    types = [e["type"] for e in match.events()]
    assert types[-2:] == ["BgResultReported", "BgResultConfirmed"]
    assert match.state()["state"]["confirmed"] is True


def _crossed(page, send: str, during: str) -> None:
    """Tap `send` (it stores a command): the reply comes first and the face reads the match;
    the live feed's delta arrives while that read is on its way, so the face reads it again.
    The second read is held until `during` has been tapped on what the first read showed."""
    before = page.evaluate(VERSION)
    page.evaluate("window.crossing.arm()")
    page.click(send)
    page.wait_for_function(IDLE, arg=before)
    page.wait_for_function("window.crossing.held !== null")  # the feed's re-read, held
    page.click(during)
    page.evaluate("window.crossing.release()")
    page.wait_for_function("window.crossing.answered")


def _crossing_recorder(page, head_api) -> BgMatch:
    match = BgMatch(head_api, length=5)
    page.add_init_script(CROSSING_READS % {"path": f"/api/backgammon/matches/{match.id}"})
    open_recorder(page, match)
    return match


def test_a_read_crossing_the_first_die_keeps_it(page, head_api):
    """The second read answers the version the first die of the opening roll was tapped on:
    the tap stays and the second die sends the roll (the re-read used to drop it, and the roll
    never went: CI under load)."""
    _crossing_recorder(page, head_api)
    _crossed(page, "[data-action=start-game]", "[data-dice-for=A] [data-die='3']")
    tap(page, "[data-dice-for=B] [data-die='1']")
    assert page.locator("bg-board [data-dice]").get_attribute("data-dice") == "3-1"


def test_a_read_crossing_a_picked_checker_keeps_it(page, head_api):
    """The same for a checker picked to move: its destinations stay highlighted."""
    _crossing_recorder(page, head_api)
    tap(page, "[data-action=start-game]")
    page.click("[data-dice-for=A] [data-die='3']")
    _crossed(page, "[data-dice-for=B] [data-die='1']", "bg-board button[data-own='8']")
    page.locator("bg-board button[data-own='5']").click()
    page.locator("bg-board button[data-own='6']").click()
    page.locator("bg-board button[data-own='5']").click()
    tap(page, "[data-action=play]")
    assert page.locator("bg-board [data-point='5']").get_attribute("data-a") == "2"


def test_a_tap_that_spans_a_redraw_still_records(page, head_api):
    """The judge's thumb goes down on a die, the face redraws (the feed, the outbox or the
    clock says something new), the thumb comes up: the die under it is the same button, so
    the tap counts. Replacing the face's nodes lost it; and the TD sheet a judge opened stays
    open through every redraw."""
    match = BgMatch(head_api, length=5)
    open_recorder(page, match)
    page.click("[data-td] summary")
    tap(page, "[data-action=start-game]")
    press(page, "[data-dice-for=A] [data-die='3']")
    page.evaluate("window.bg.render()")  # the face redraws under the thumb
    page.mouse.up()
    assert page.get_attribute("[data-dice-for=A] [data-die='3']", "aria-pressed") == "true"
    tap(page, "[data-dice-for=B] [data-die='1']")
    assert page.locator("bg-board [data-dice]").get_attribute("data-dice") == "3-1"
    assert page.locator("[data-td]").evaluate("d => d.open") is True


def test_a_feed_that_never_brings_the_recorders_own_entry_is_replaced(page, head_api):
    """The recorder's socket dies silently; its next entry is answered over HTTP and the feed
    does not bring it: a few seconds on, the socket is replaced (reconnected with `after`),
    so entries made on other devices show again and "Live" is true again."""
    match = BgMatch(head_api, length=5)
    open_recorder(page, match)
    page.evaluate(
        "() => { window.dead = window.bg.feed.live.socket; window.dead.onmessage = null; }"
    )
    tap(page, "[data-action=start-game]")
    page.wait_for_function(
        """() => { const live = window.bg.feed.live;
                   return live.socket && live.socket !== window.dead && live.state === 'live'
                     && window.bg.feed.version >= 2; }""",
        timeout=10_000,
    )


def test_the_resign_menu_a_judge_opened_stays_open_through_a_redraw(page, head_api):
    """A side is about to resign: the judge opens the menu, the feed or the clock redraws the
    face, the menu is still open under the thumb (the redraw closed it)."""
    match = BgMatch(head_api, length=5)
    match.post({"type": "StartGame", "position": [RACE, RACE]})  # no contact: resigning allowed
    open_recorder(page, match)
    page.click("[data-resign] summary")
    page.evaluate("window.bg.render()")
    assert page.locator("[data-resign]").evaluate("d => d.open") is True
    page.click("[data-resign] summary")  # and the judge's own tap still closes it
    page.evaluate("window.bg.render()")
    assert page.locator("[data-resign]").evaluate("d => d.open") is False


# After the reply to the next command: the first GET of the match waits 800 ms before it goes
# (the feed's delta arrives meanwhile), the second waits for release().
CROSSING_READS = """
const fresh = { command: false, armed: false, reads: 0, held: null, answered: false };
window.crossing = { ...fresh,
  arm() { Object.assign(this, fresh, { command: true }); },
  release() { this.held(); } };
const realFetch = window.fetch.bind(window);
window.fetch = async (input, init) => {
  const url = new URL(typeof input === "string" ? input : input.url, location.href);
  const c = window.crossing;
  const method = init?.method || "GET";
  if (c.command && method === "POST" && url.pathname === "%(path)s/commands") {
    const reply = await realFetch(input, init);
    c.command = false;
    c.armed = true;
    return reply;
  }
  if (!c.armed || url.pathname !== "%(path)s" || method !== "GET") {
    return realFetch(input, init);
  }
  const n = (c.reads += 1);
  if (n === 1) await new Promise((go) => setTimeout(go, 800));
  if (n === 2) {
    await new Promise((go) => { c.held = go; });
    const reply = await realFetch(input, init);
    setTimeout(() => { c.answered = true; }, 0);
    return reply;
  }
  return realFetch(input, init);
};
"""


def test_a_frozen_board_is_shown_and_offers_no_play(page, head_api):
    """KSI 5.1: once the TD is called, everything stays untouched: the recorder says so and
    offers neither the play pad nor a resignation, until the TD rules."""
    match = BgMatch(head_api, length=5)
    match.post(
        {"type": "StartGame"},
        {"type": "RollOpening", "die_a": 3, "die_b": 1},
        {"type": "CallTD", "side": "B", "reason": "A moved before B finished"},
    )
    open_recorder(page, match)
    assert page.locator("[data-frozen=called]").is_visible()
    assert page.locator("bg-board [data-point]").count() > 0
    assert page.locator("[data-resign]").count() == 0
    assert page.locator("[data-phase] button[data-action=play], [data-die]").count() == 0
    match.post({"type": "GiveRuling", "text": "play on"})
    page.wait_for_selector("[data-frozen]", state="detached")
