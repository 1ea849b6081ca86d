"""Read models over HTTP: tables, history, the auditor's record and chain check (the demo:
test_demo.py)."""

from __future__ import annotations

import base64
import random

from support.harness import Api, wait_for
from support.play import create, play


def test_history_tables_and_auditor_record(server, head):
    rng = random.Random(41)
    judge = Api(server.base, head.judge_token(15)["token"])
    match_id, view = create(head, 15, rng, competition_id="reads")
    view = play(head, judge, match_id, view, rng)
    spectator = Api(server.base)
    history = wait_for(
        lambda: (
            len(r := spectator.get(f"/api/matches/{match_id}/history").json()) == view.version and r
        )
    )
    assert [h["version"] for h in history] == list(range(1, view.version + 1))
    assert spectator.get("/api/tables/15").json()["match_id"] == match_id
    assert spectator.get("/api/tables", competition="reads").json()[0]["table"] == 15
    assert spectator.get(f"/api/matches/{match_id}/record").status_code == 401
    made = head.http.post(
        "/api/accounts",
        headers=head.headers(),
        json={"username": "jury", "role": "auditor", "password": "jury-password"},
    )
    assert made.status_code == 201
    auditor = Api(server.base).login("jury", "jury-password")
    record = auditor.get(f"/api/matches/{match_id}/record").json()
    assert len(record) == view.version and len(record[0]["hash"]) == 64
    assert record[1]["prev_hash"] == record[0]["hash"]
    assert {r["recorder"] for r in record} <= {"head", "table-15-judge"}
    verified = auditor.get(f"/api/matches/{match_id}/verify").json()
    assert verified["intact"] is True
    # Every answer says which checks ran (#29): the chain, and the seal up to a signed checkpoint.
    assert verified["verdict"] == "ok" and verified["missing"] == [], verified
    assert verified["seal"]["position"] >= view.version and verified["seal"]["signature_checked"]
    assert any(c.startswith("sealed: the store-wide chain") for c in verified["checks"]), verified
    assert auditor.command(match_id, view.version, {"type": "UndoLastEntry"}).status_code == 403


def test_judge_token_comes_with_qr_images(server, head):
    issued = head.judge_token(16)
    assert issued["link"].endswith(f"/judge?table=16#token={issued['token']}")
    assert issued["qr_svg"].startswith("data:image/svg+xml")
    png = base64.b64decode(issued["qr_png"].split(",", 1)[1])
    assert png.startswith(b"\x89PNG")
    assert Api(server.base, issued["token"]).get("/api/whoami").json()["table"] == 16


def test_board_at_each_version_and_token_list_and_logout(server, head):
    rng = random.Random(42)
    match_id, view = create(head, 17, rng)
    open_ = head.command(
        match_id, view.version, {"type": "AssignOpeningShot", "method": "lot", "lot_winner": "B"}
    )
    last = open_.json()["last_version"]
    spectator = Api(server.base)
    board = spectator.get(f"/api/matches/{match_id}/at/{last}").json()
    assert board["version"] == last and board["game"]["game_no"] == 1
    assert spectator.get(f"/api/matches/{match_id}/at/{last + 1}").status_code == 404
    issued = head.judge_token(17)
    assert issued["token_id"] in {t["token_id"] for t in head.get("/api/judge-tokens").json()}
    assert spectator.get("/api/judge-tokens").status_code == 401
    session = Api(server.base).login()
    assert session.http.post("/api/logout", headers=session.headers()).status_code == 204
    assert session.get("/api/whoami").status_code == 401


def test_min_position_reads_your_own_writes(server, head):
    rng = random.Random(43)
    match_id, view = create(head, 19, rng)
    done = head.command(
        match_id, view.version, {"type": "AssignOpeningShot", "method": "lot", "lot_winner": "A"}
    )
    last = done.json()["positions"][-1]
    spectator = Api(server.base)
    history = spectator.get(f"/api/matches/{match_id}/history", min_position=last).json()
    assert history[-1]["position"] == last
    board = spectator.get(f"/api/matches/{match_id}", min_position=last).json()
    assert board["position"] == last and board["status"] == "playing"
    too_far = spectator.get(f"/api/matches/{match_id}/protocol", min_position=last + 10**6)
    assert too_far.status_code == 422 and too_far.json()["field"] == "min_position"
