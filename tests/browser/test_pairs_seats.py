"""Pairs for spectators (issue 35 point 2): the ▶ marks the one partner who shoots, never the
pair (EKML §28(1): strokes pass clockwise, one player at a time)."""

from __future__ import annotations

from support.harness import Api

A, B = ["Peeter Saar", "Liis Kask"], ["Jaan Kask", "Mari Mets"]


def _command(judge: Api, match_id: str, version: int, command: dict) -> int:
    r = judge.command(match_id, version, command)
    assert r.status_code == 201, r.text
    return r.json()["events"][-1]["version"]


def test_ekml_28_1_spectator_card_marks_only_the_shooter(page, head_api: Api, pwa_server) -> None:
    table = 35
    judge = Api(pwa_server.base, head_api.judge_token(table)["token"])
    r = head_api.create(table, A, B, format="pairs")
    assert r.status_code == 201, r.text
    match_id, version = r.json()["match_id"], r.json()["events"][-1]["version"]
    opening = {"type": "AssignOpeningShot", "method": "lot", "lot_winner": "A", "opener": A[0]}
    version = _command(judge, match_id, version, opening)
    version = _command(judge, match_id, version, {"type": "RecordStroke", "player": A[0]})
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
