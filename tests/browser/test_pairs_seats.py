"""Pairs seats (issue 35 point 2): the ▶ marks the one partner who shoots, never the pair
(EKML §28(1): strokes pass clockwise, one player at a time); the pad and the spectator page
show the seats clockwise and, between games, that everyone moves one seat and sets out the
partner's pucks (§28(1) märkus 1)."""

from __future__ import annotations

import json

from support.harness import Api, wait_for
from tableside.server.pwa.assets import DEFAULT_PWA_DIR

from .judge_helpers import new_table, open_judge

A, B = ["Peeter Saar", "Liis Kask"], ["Jaan Kask", "Mari Mets"]


def _command(judge: Api, match_id: str, version: int, command: dict) -> int:
    r = judge.command(match_id, version, command)
    assert r.status_code == 201, r.text
    return r.json()["events"][-1]["version"]


def _after_one_stroke(head_api: Api, pwa_server, table: int) -> tuple[str, int]:
    """A pairs match on `table`, A opening, whose first stroke pocketed nothing: (id, version)."""
    judge = Api(pwa_server.base, head_api.judge_token(table)["token"])
    r = head_api.create(table, A, B, format="pairs")
    assert r.status_code == 201, r.text
    match_id, version = r.json()["match_id"], r.json()["events"][-1]["version"]
    opening = {"type": "AssignOpeningShot", "method": "lot", "lot_winner": "A", "opener": A[0]}
    version = _command(judge, match_id, version, opening)
    return match_id, _command(judge, match_id, version, {"type": "RecordStroke", "player": A[0]})


def test_ekml_28_1_spectator_card_marks_only_the_shooter(page, head_api: Api, pwa_server) -> None:
    match_id, version = _after_one_stroke(head_api, pwa_server, 35)
    page.goto("/")
    page.wait_for_selector("html[data-ready=true]")
    card = page.locator(f".match-card[data-match-id='{match_id}']")
    page.wait_for_selector(f".match-card[data-match-id='{match_id}'][data-version='{version}']")
    shooter = head_api.get(f"/api/matches/{match_id}").json()["game"]["turn"]
    assert shooter in B  # the stroke pocketed nothing: the turn passed clockwise
    names = card.locator(".card-side[data-side='1'] .card-name").inner_text()
    assert names.count("▶") == 1 and f"▶ {shooter}" in names, names
    partner = next(p for p in B if p != shooter)
    assert f"▶ {partner}" not in names
    assert card.locator(".card-side[data-side='1'] .turn-arrow").inner_text() == ""
    assert "▶" not in card.locator(".card-side[data-side='0']").inner_text()
    said = card.locator(".card-side[data-side='1'] .card-said").inner_text()
    assert shooter in said.split(",", 1)[1], said  # a screen reader hears who shoots


def _words(lang: str) -> dict[str, str]:
    return json.loads((DEFAULT_PWA_DIR / "i18n" / f"{lang}.json").read_text("utf-8"))


def test_ekml_28_1_pad_and_spectator_page_show_seats_and_the_move(
    page, head_api: Api, pwa_server
) -> None:
    t = new_table(head_api, A, B, format="pairs", games=3)
    match_id = t["match_id"]
    judge = Api(pwa_server.base, t["token"])
    # the match's read model is eventually consistent (decision 0013): wait for it
    version = wait_for(lambda: head_api.get(f"/api/matches/{match_id}").json().get("version"))
    opening = {"type": "AssignOpeningShot", "method": "lot", "lot_winner": "A", "opener": A[0]}
    version = _command(judge, match_id, version, opening)
    order_1 = " → ".join([A[0], B[0], A[1], B[1]])
    open_judge(page, t["path"])
    page.click("language-picker [data-lang=lv]")
    page.wait_for_function("document.documentElement.lang === 'lv'")
    lv = _words("lv")
    seats = page.locator("main [data-seats]")
    said = "(ps) => ps.map((p) => p.textContent)"  # a phone shows first names (issue 54)
    assert seats.evaluate_all(said) == [lv["board.seats"].format(order=order_1)]
    took = {"type": "ReportIncident", "code": "took_puck", "player": A[0]}  # game 1 lost
    version = _command(judge, match_id, version, took)
    order_2 = " → ".join([B[1], A[0], B[0], A[1]])
    page.wait_for_function(
        "(v) => window.judge.state.shown?.version >= v"
        " && window.judge.state.shown.game.game_no === 2",
        arg=version,
    )
    page.wait_for_function(
        "(n) => document.querySelectorAll('main [data-seats]').length === n", arg=2
    )
    assert seats.evaluate_all(said) == [
        lv["board.seats"].format(order=order_2),
        lv["board.seats_move"],
    ]
    spectator = page.context.new_page()
    spectator.goto(f"/?match={match_id}")
    spectator.wait_for_selector("html[data-ready=true]")
    spectator.click("language-picker [data-lang=et]")
    spectator.wait_for_function("document.documentElement.lang === 'et'")
    et = _words("et")
    spectator.wait_for_function(
        "(n) => document.querySelectorAll('[data-seats]').length === n", arg=2
    )
    assert spectator.locator("[data-seats]").all_inner_texts() == [
        et["board.seats"].format(order=order_2),
        et["board.seats_move"],
    ]
    spectator.close()


MARKS = """() => [...document.querySelectorAll('.score-side .player')].map((p) => [p.textContent,
  getComputedStyle(p, '::before').content])"""


def test_ekml_28_1_spectator_match_page_marks_only_the_shooter(
    page, head_api: Api, pwa_server
) -> None:
    """The match page (/?match=…): ▶ before the partner who shoots, not before both."""
    match_id, version = _after_one_stroke(head_api, pwa_server, 36)

    def caught_up() -> str:  # the read model follows the append (eventually consistent)
        doc = head_api.get(f"/api/matches/{match_id}").json()
        return doc["game"]["turn"] if doc.get("version", 0) >= version else ""

    shooter = wait_for(caught_up)
    assert shooter in B
    page.goto(f"/?match={match_id}")
    page.wait_for_selector("html[data-ready=true]")
    page.wait_for_function(
        "(who) => [...document.querySelectorAll('.score-side.has-turn .player')]"
        ".some((p) => p.textContent === who)",
        arg=shooter,
    )
    marked = [name for name, before in page.evaluate(MARKS) if "▶" in before]
    assert marked == [shooter], page.evaluate(MARKS)
