"""A pairs match of three games recorded on the pad in Chromium (an 800×1280 tablet, Estonian
and Latvian), its protocol PDF read with pdftotext and checked line by line against what was
tapped (issue 35 point 8): who shot, who offended, who bore it, each game's seats and winner.

Seats clockwise from the opening seat: Mari, Ants, Jaan, Tiina (A: Mari / Jaan, B: Ants /
Tiina); each game everyone moves one seat clockwise (EKML §28(1)).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from support.harness import Api
from tableside.match.exports.labels import code_words, words

from .judge_helpers import choose, settle, start_game, tap

A, B = "Mari / Jaan", "Ants / Tiina"


@pytest.fixture
def viewport() -> dict[str, int]:
    return {"width": 800, "height": 1280}


def _turn(page) -> str:
    return page.evaluate("window.judge.state.shown.game.turn")


def _next_game(page) -> None:
    page.wait_for_selector("main [data-panel=game-over]")
    tap(page, "next_game")
    page.locator("dialog[open] button.primary").click()  # "Game n starts?"
    settle(page)
    page.wait_for_selector("main [data-panel=pad]")


def _sixteen_unanswered(page, opener: str, responder: str) -> None:
    """The opener clears 16 in the first series; the next opponent cannot (EKML §28(7))."""
    assert _turn(page) == opener
    tap(page, "pocketed_more", "16")
    settle(page)
    assert _turn(page) == responder
    tap(page, "no_pocket")
    settle(page)


def _play(page) -> None:
    """The three games, stroke by stroke; asserts whose turn each stroke is."""
    # Game 1: Mari opens; the striker falls in with a pocketed puck (§24(1)4).
    assert _turn(page) == "Mari"
    tap(page, "striker_pocket")
    tap(page, "pocketed")
    settle(page)
    assert _turn(page) == "Ants"
    tap(page, "no_pocket")
    settle(page)
    assert _turn(page) == "Jaan"
    # Ants moves a puck in Jaan's turn: Tiina, B's next shooter, bears it (§28(5) example 2).
    tap(page, "more", "incident")
    choose(page, "moved_puck_in_opponent_turn")
    choose(page, "Ants")
    settle(page)
    # Mari advises Jaan after the striker is placed: the remark the pad offers first (§28(9)).
    tap(page, "remark", "partner_advice_after_placing")
    page.locator("dialog[open] button[data-value]").first.click()
    settle(page)
    tap(page, "no_pocket")  # Jaan; Tiina misses her turn (§24(8))
    settle(page)
    assert _turn(page) == "Mari"
    tap(page, "pocketed_more", "16")  # A clears: game 1 (§27(3))
    settle(page)
    _next_game(page)
    # Game 2: everyone one seat on, Tiina in the opening seat; 16 in her first series (§28(7)).
    _sixteen_unanswered(page, "Tiina", "Mari")
    _next_game(page)
    _sixteen_unanswered(page, "Jaan", "Tiina")  # game 3
    page.wait_for_selector("main [data-panel=match-over]")


def _pdf_text(api: Api, match_id: str, lang: str, tmp_path: Path) -> str:
    r = api.get(f"/api/matches/{match_id}/protocol.pdf", lang=lang)
    assert r.status_code == 200, r.text
    pdf = tmp_path / f"pairs-{lang}.pdf"
    pdf.write_bytes(r.content)
    raw = subprocess.run(
        ["pdftotext", "-raw", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    return " ".join(raw.split())


def _in_order(text: str, rows: list[list[str]]) -> None:
    """Each row's cells, joined, appear in the text, the rows in this order."""
    at = 0
    for cells in rows:
        row = " ".join(" ".join(c.split()) for c in cells)
        found = text.find(row, at)
        assert found >= 0, f"no row {row!r} after position {at} in\n{text}"
        at = found + len(row)


@pytest.mark.parametrize("lang", ["et", "lv"])
def test_pairs_match_of_three_games_on_the_pad_and_its_protocol_line_by_line(
    page, head_api: Api, lang: str, tmp_path: Path
) -> None:
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext missing: run `make pdf-tools` as root (poppler-utils)")
    t = start_game(page, head_api, lang, pairs=True, games=3)
    _play(page)
    text = _pdf_text(head_api, t["match_id"], lang, tmp_path)
    w = words(lang)
    cw = lambda code: code_words(lang, code)  # noqa: E731
    _in_order(
        text,
        [
            [w["game"], w["opening"], w["winner"], w["reason"]],
            ["1", "Mari", A, cw("cleared")],
            ["2", "Tiina", B, cw("first_series")],
            ["3", "Jaan", A, cw("first_series")],
            [w["seats"]],
            ["1", "Mari → Ants → Jaan → Tiina"],
            ["2", "Tiina → Mari → Ants → Jaan", "EKML §28(1)"],
            ["3", "Jaan → Tiina → Mari → Ants", "EKML §28(1)"],
            [w["seats_move"]],
            [w["games_won"], "2 : 1"],
            [w["winner"], A],
            [w["sanctions"]],
            [w["game"], w["kind"], w["offender"], w["borne_by"], w["detail"], w["rule"]],
            ["1", w["penalty"], "Mari", "Mari", cw("striker_pocket"), "EKML §24(1)4, EKML §28(5)"],
            [
                "1",
                w["penalty"],
                "Ants",
                "Tiina",
                cw("moved_puck_in_opponent_turn"),
                "EKML §24(1)15, EKML §24(8), EKML §28(5)",
            ],
            ["1", w["forfeit_turn"], "Ants", "Tiina", cw("moved_puck_in_opponent_turn")],
            ["1", w["remark"], "Mari", "Mari", f"{cw('partner_advice_after_placing')} (1)"],
        ],
    )
    assert "EKML §26(1)7" in text
