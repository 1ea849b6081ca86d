"""Issue 30, the faces a KSI event uses, in Icelandic on a phone (360×640) and a laptop
(1280×800), measured in Chromium: before the first game the board says no game yet (never
"Game 0"); the opening roll's banner shows whole (phone and laptop);
Resign is offered only once no checker can be hit (KSI 4.5); the spectators' board keeps one
orientation through a whole game (A at the bottom, point 1 on the right); the audit replay's
rows never overlap and none cuts its words (the rendered boxes)."""

from __future__ import annotations

import itertools
import random

import msgspec
import pytest
from support.harness import Api
from support.recorded import auditor
from tableside.disciplines.backgammon import commands as c
from tableside.disciplines.backgammon import decide, fold, initial_state
from tableside.disciplines.backgammon.simulate import next_command

from .bg_helpers import BgMatch, open_recorder, tap

PLAYERS = ("Ásdís Ólafsdóttir", "Kári Einarsson")
RACE = [0, 15, *[0] * 24]  # off, points 1-24, bar: everyone home, no contact
BOX = """(sel) => { const el = document.querySelector(sel); const r = el.getBoundingClientRect();
  return [el.textContent.trim(), el.scrollHeight - el.clientHeight, el.scrollWidth - el.clientWidth,
          Math.round(r.left), Math.round(innerWidth - r.right)]; }"""
POINT_ONE = """() => { const root = document.querySelector('bg-board').shadowRoot;
  const at = (n) => root.querySelector(`[data-point='${n}']`).getBoundingClientRect();
  const [one, twelve, thirteen, last] = [1, 12, 13, 24].map(at);
  return [Math.sign(Math.round(one.y - last.y)), Math.sign(Math.round(one.x - twelve.x)),
          Math.sign(Math.round(thirteen.x - last.x))]; }"""
ROWS = """() => [...document.querySelectorAll('[data-timeline] li')].map((li) => {
  const r = li.getBoundingClientRect();
  const out = [...li.querySelectorAll('span:not(.visually-hidden)')].filter((s) => {
    const b = s.getBoundingClientRect();
    return b.top < r.top - 0.5 || b.bottom > r.bottom + 0.5; }).length;
  return [li.dataset.version, r.top, r.bottom, out]; })"""
FACE_VERSION = "() => Number(document.getElementById('face').dataset.version)"
VERSION = "(v) => Number(document.querySelector('[data-bg-board]')?.dataset.version || 0) >= v"


@pytest.mark.parametrize(
    "viewport", [{"width": 360, "height": 640}, {"width": 1280, "height": 800}]
)
def test_ksi_faces_fit_in_icelandic(browser, pwa_server, head_api: Api, viewport) -> None:
    match = BgMatch(head_api, length=5, clock=False, players=PLAYERS)
    watcher = auditor(head_api, name=f"skodandi{viewport['width']}")
    context = browser.new_context(
        bypass_csp=True, base_url=pwa_server.base, locale="is-IS", viewport=viewport
    )
    context.add_init_script(f"localStorage.setItem('tableside.audit-token', '{watcher.token}')")
    try:
        page = context.new_page()
        open_recorder(page, match)
        page.wait_for_selector("html[lang=is]")
        note = page.locator("bg-board [data-note]").inner_text()
        assert note == "Viðureign í 5 · enginn leikur enn", note  # never "Leikur 0"
        assert "Leikur 0" not in page.locator("body").inner_text()

        tap(page, "[data-action=start-game]")
        page.click("[data-dice-for=A] [data-die='3']")
        tap(page, "[data-dice-for=B] [data-die='1']")
        page.wait_for_selector("[data-banner=ok]")
        said, taller, wider, left, right = page.evaluate(BOX, "[data-banner]")
        assert wider <= 1 and left >= 0 and right >= 0, (said, wider)
        # The opening roll's words name the starter once, the higher die first: two lines even
        # at 360 px with two long Icelandic names (the phone's banner keeps two lines).
        assert said.startswith("Upphafskast 3-1: Ásdís Ólafsdóttir byrjar"), said
        assert taller <= 1, (said, taller)
        assert page.locator("[data-resign]").count() == 0  # contact: no resignation (KSI 4.5)

        match.version = page.evaluate(FACE_VERSION)
        match.post(
            {"type": "Play", "side": "A", "moves": [[8, 5], [6, 5]]},
            {"type": "Double", "side": "B"},
            {"type": "Drop", "side": "A"},
            {"type": "StartGame", "position": [RACE, RACE]},
            {"type": "RollOpening", "die_a": 6, "die_b": 2},
        )
        page.wait_for_selector("[data-resign]")  # no contact: Resign is offered

        watch = context.new_page()
        watch.goto(f"/watch?match={match.id}")
        watch.wait_for_selector("section.spectator[data-live=true]")
        watch.wait_for_function(VERSION, arg=match.version)
        seen = {tuple(watch.evaluate(POINT_ONE))}
        _race(match, watch, seen)
        assert len(seen) == 1, seen  # one orientation through the whole game

        audit = context.new_page()
        audit.goto(f"/audit/match/{match.id}")
        count = len(match.events())
        audit.wait_for_function(
            "(n) => document.querySelectorAll('[data-timeline] li').length === n", arg=count
        )
        rows = audit.evaluate(ROWS)
        overlaps = [(a[0], b[0]) for a, b in itertools.pairwise(rows) if b[1] < a[2] - 0.5]
        cut = [r[0] for r in rows if r[3]]  # a word outside its row's box
        assert not overlaps and not cut, (overlaps, cut)
    finally:
        context.close()


def _race(match: BgMatch, watch, seen: set) -> None:
    """Play the race game out over the API with the simulator's legal commands, measuring the
    spectators' board after each entry."""
    state = fold(
        decide(
            initial_state(),
            c.CreateMatch(match_id="m", player_a=PLAYERS[0], player_b=PLAYERS[1], length=5),
        )
    )
    for command in (
        c.StartGame(),
        c.RollOpening(die_a=3, die_b=1),
        c.Play(side="A", moves=((8, 5), (6, 5))),
        c.Double(side="B"),
        c.Drop(side="A"),
        c.StartGame(position=(tuple(RACE), tuple(RACE))),
        c.RollOpening(die_a=6, die_b=2),
    ):
        state = fold(decide(state, command), state)
    rng = random.Random(30)
    game = state.game.game_no
    while state.game.game_no == game and state.game.phase != "over" and not state.over:
        command = next_command(state, rng)
        state = fold(decide(state, command), state)
        match.post(msgspec.to_builtins(command))
        watch.wait_for_function(VERSION, arg=match.version)
        seen.add(tuple(watch.evaluate(POINT_ONE)))
