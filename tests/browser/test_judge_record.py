"""The judge records whole games by tapping; the server's protocol read model holds them."""

from __future__ import annotations

import random

from support.harness import wait_for
from support.play import create, play

from .harness import screenshot
from .judge_helpers import TABLES, choose, new_table, open_judge, panel, settle, tap, turn


def shows(page, text: str) -> None:
    """The banner says `text` (what the engine decided, with its paragraph)."""
    page.wait_for_function(
        "(text) => document.querySelector('[data-banner]')?.textContent.includes(text)", arg=text
    )


def protocol(head_api, match_id: str) -> dict:
    return wait_for(
        lambda: (
            (doc := head_api.get(f"/api/matches/{match_id}/protocol").json()).get("signed") and doc
        )
    )


def sign(page, name: str) -> None:
    assert panel(page) == "match-over"
    screenshot(page, "judge-360x640-match-over")
    tap(page, "sign")  # no name yet: the banner asks for it
    shows(page, "Write your name first")
    page.fill("#judge-name", name)
    tap(page, "sign")
    page.locator("dialog[open] button.primary").click()
    page.wait_for_selector("[data-notice=signed]")


def test_a_singles_game_from_the_qr_link_to_the_signed_protocol(page, head_api):
    t = new_table(head_api, ["Mari Tamm"], ["Jaan Kask"])
    open_judge(page, t["path"])
    assert panel(page) == "opening"
    page.locator("[data-panel=opening] .side-0").click()  # Mari won the coin toss
    settle(page)
    assert panel(page) == "pad" and turn(page) == "Mari Tamm"

    tap(page, "no_pocket")
    shows(page, "Loss of turn — EKML §25(1)1")
    settle(page)
    assert turn(page) == "Jaan Kask"
    tap(page, "pocketed")  # the big button: one own puck, the turn goes on
    settle(page)
    tap(page, "undo")  # the confirmation says what it corrects
    assert "Stroke by Jaan Kask: pocketed 1" in page.locator("dialog[open]").inner_text()
    page.locator("dialog[open] button.primary").click()
    shows(page, "Corrected: Stroke by Jaan Kask: pocketed 1")
    settle(page)
    assert page.locator("[data-pucks='1']").inner_text() == "● 8"
    page.locator("main [data-act=pocketed]").nth(1).click()  # "2"
    settle(page)
    assert page.locator("[data-pucks='1']").inner_text() == "● 6"
    tap(page, "striker_pocket")  # armed: the outcome records it (issue 14 point 1)
    tap(page, "no_pocket")
    shows(page, "Penalty puck to Jaan Kask — EKML §24(1)4")
    settle(page)
    assert turn(page) == "Mari Tamm"
    tap(page, "remark", "cleaning_board")
    choose(page, "Jaan Kask")
    settle(page)
    assert page.locator("[data-side='1'] [data-remarks]").get_attribute("data-remarks") == "1"
    tap(page, "pocketed_more", "8")  # Mari clears the board: game and match
    settle(page)
    shows(page, "Game 1: Mari Tamm wins — EKML §27(3)")
    sign(page, "Tiina Kohtunik")

    doc = protocol(head_api, t["match_id"])
    assert doc["won"] == [1, 0] and doc["winner"] == "A" and doc["status"] == "signed"
    assert [g["winner"] for g in doc["game_results"]] == ["A"]
    assert [(r["player"], r["reason"]) for r in doc["remarks"]] == [("Jaan Kask", "cleaning_board")]
    assert any(
        p["type"] == "PenaltyAwarded" and p["player"] == "Jaan Kask" for p in doc["penalties"]
    )
    assert [c["by"] for c in doc["corrections"]] == ["table_judge"]
    assert [s["judge"] for s in doc["signatures"]] == ["Tiina Kohtunik"]


def test_a_pairs_game_with_seats_chosen_at_the_opening(page, head_api):
    t = new_table(head_api, ["Anu", "Birgit"], ["Cara", "Dina"], format="pairs")
    open_judge(page, t["path"])
    page.locator("[data-panel=opening] .side-0").click()
    choose(page, "Anu")  # the opener of the pair that won the lot
    choose(page, "Cara")  # the opponent next to her, clockwise
    settle(page)
    assert turn(page) == "Anu"
    tap(page, "no_pocket")
    settle(page)
    assert turn(page) == "Cara"
    page.locator("main [data-act=pocketed]").nth(1).click()
    settle(page)
    tap(page, "no_pocket")
    settle(page)
    assert turn(page) == "Birgit"
    tap(page, "pocketed_more", "16")
    settle(page)
    sign(page, "Peeter")

    doc = protocol(head_api, t["match_id"])
    assert doc["opening"]["seats"] == ["Anu", "Cara", "Birgit", "Dina"]
    assert doc["format"] == "pairs" and doc["winner"] == "A" and doc["won"] == [1, 0]
    assert doc["result"]["points_a"] == 4.0


def test_game_end_waits_for_the_judge_and_can_still_be_undone(page, head_api):
    t = new_table(head_api, ["Mari Tamm"], ["Jaan Kask"], games=3)
    open_judge(page, t["path"])
    page.locator("[data-panel=opening] .side-0").click()
    settle(page)
    for act in ("no_pocket", "no_pocket"):  # 8 in the opening series would be EKML §27(5)
        tap(page, act)
        settle(page)
    tap(page, "pocketed_more", "8")
    settle(page)
    assert panel(page) == "game-over"
    screenshot(page, "judge-360x640-game-over")
    ended = page.locator("[data-panel=game-over] [data-game-end]").inner_text()
    # the offence (or the way it was won) in words beside its paragraph (issue 14 point 7)
    assert "Mari Tamm wins game 1" in ended and "all pucks pocketed" in ended and "§" in ended
    tap(page, "next_game")
    assert "game 1 can no longer be corrected" in page.locator("dialog[open]").inner_text()
    page.locator("dialog[open] button.primary").click()
    assert panel(page) == "pad" and turn(page) == "Jaan Kask"  # sides changed, EKML §27(2)
    for act in ("no_pocket", "no_pocket"):
        tap(page, act)
        settle(page)
    tap(page, "pocketed_more", "8")
    settle(page)
    assert panel(page) == "game-over"
    tap(page, "undo")  # the game's last stroke was a mistake: the game is not over
    assert "Stroke by Jaan Kask: pocketed 8" in page.locator("dialog[open]").inner_text()
    page.locator("dialog[open] button.primary").click()
    settle(page)
    assert panel(page) == "pad" and turn(page) == "Jaan Kask"
    assert page.locator("[data-score]").inner_text() == "1 : 0"


def test_the_thirty_second_limit_counts_down_and_offers_the_report(page, head_api):
    t = new_table(head_api, ["Mari Tamm"], ["Jaan Kask"])
    page.clock.install()
    open_judge(page, t["path"])
    page.locator("[data-panel=opening] .side-0").click()
    settle(page)
    tap(page, "time", "slow")  # no limit yet: the sheet offers the slow-play remark
    settle(page)
    shows(page, "30 s limit from now on — EKML §26(4)")
    page.wait_for_function("window.judge.state.judge?.time_limit?.[0]")
    time = page.locator("main [data-act=time]")
    page.wait_for_function("document.querySelector('[data-act=time]').textContent === 'Start 30 s'")
    time.click()
    page.clock.run_for(31_000)
    page.wait_for_function(
        "document.querySelector('[data-act=time]').textContent.startsWith('Time up')"
    )
    time.click()
    shows(page, "EKML §24(1)18")
    settle(page)
    assert turn(page) == "Jaan Kask"


def test_a_signed_match_reads_final_not_live(page, head_api):
    """Issue 14, point 7: a finished, signed match must not show a green "Live"."""
    number = next(TABLES)
    issued = head_api.judge_token(number)
    rng = random.Random(12)
    match_id, view = create(head_api, number, rng)
    open_judge(page, issued["link"][issued["link"].index("/judge") :])
    page.wait_for_function("document.querySelector('[data-live-state]').dataset.live === 'true'")
    play(head_api, head_api, match_id, view, rng)  # to the end and the signature
    page.wait_for_function(
        "document.querySelector('[data-live-state]').dataset.liveState === 'final'"
    )
    badge = page.locator("[data-live-state]")
    assert badge.get_attribute("data-live") == "false" and "Final" in badge.inner_text()
