"""Roles and problem details: 409 on a stale version, 403 across tables, 401 after revocation."""

from __future__ import annotations

import asyncio
import json
import math
import random
import time

import pytest
import websockets
from support.harness import Api, Server, run_async, wait_for
from support.play import create

OPEN = {"type": "AssignOpeningShot", "method": "lot", "lot_winner": "A"}


def test_conflicting_judges_one_wins_one_409(server, head):
    match_id, view = create(head, 6, random.Random(1))
    judge = Api(server.base, head.judge_token(6)["token"])
    first = judge.command(match_id, view.version, OPEN)
    second = head.command(match_id, view.version, {**OPEN, "lot_winner": "B"})
    assert first.status_code == 201
    assert second.status_code == 409
    assert second.headers["content-type"].startswith("application/problem+json")
    assert second.json()["current_version"] == first.json()["last_version"]


def test_rule_violation_is_422_naming_the_paragraph(server, head):
    match_id, view = create(head, 7, random.Random(2))
    r = head.command(match_id, view.version, {"type": "SignProtocol", "judge": "x"})
    assert r.status_code == 422
    assert r.json()["rule"].startswith("EKML §") and r.json()["status"] == 422


def test_validation_error_names_the_field(server, head):
    match_id, _ = create(head, 8, random.Random(3))
    r = head.command(match_id, "seven", OPEN)
    assert r.status_code == 422  # well-formed JSON, wrong content (issue 11 point 8)
    assert r.json()["field"] == "expected_version"


def test_token_for_table_3_cannot_post_to_table_4(server, head):
    match_id, view = create(head, 4, random.Random(4))
    judge3 = Api(server.base, head.judge_token(3)["token"])
    r = judge3.command(match_id, view.version, OPEN)
    assert r.status_code == 403
    assert r.headers["content-type"].startswith("application/problem+json")


def test_a_later_match_on_the_table_takes_its_judge_token(server, head):
    """The table's token records for the match the table plays now: once a newer match is
    scheduled there, the older one refuses it (known from the followed log, not a read model)."""
    older, view = create(head, 12, random.Random(6))
    judge = Api(server.base, head.judge_token(12)["token"])
    opened = judge.command(older, view.version, OPEN)
    assert opened.status_code == 201
    busy = create_refused(head, 12)
    assert busy.json()["reason"] == "table_busy"  # the table holds the older match: close it
    close = {"type": "CloseMatch", "note": "entered on the wrong table"}
    assert head.command(older, opened.json()["last_version"], close).status_code == 201
    newer, newer_view = create(head, 12, random.Random(7))
    refused = wait_for(lambda: _refused(judge, older), timeout=5)
    assert "Not the match this table is playing now" in refused.text
    assert judge.command(newer, newer_view.version, OPEN).status_code == 201


def create_refused(head: Api, table: int):
    """A walk-up match to a held table: refused (issue 13)."""
    r = head.create(table, ["x"], ["y"])
    assert r.status_code == 409, r.text
    return r


def _refused(judge: Api, match_id: str):
    """A 403 for a command to this match, or None (the server may not have followed yet).
    The version is stale on purpose: the table is checked first, and a 409 writes nothing."""
    r = judge.command(match_id, 0, OPEN)
    return r if r.status_code == 403 else None


def test_spectator_cannot_post(server, head):
    match_id, view = create(head, 9, random.Random(5))
    assert Api(server.base).command(match_id, view.version, OPEN).status_code == 401


async def _judge_socket(server: Server, table: int, token: str):
    """The token goes in the first message, never the URL (issue 11, point 5)."""
    ws = await websockets.connect(
        f"{server.ws}/live?table={table}", subprotocols=["tableside.auth"]
    )
    await ws.send(json.dumps({"type": "auth", "token": token}))
    return ws


def test_revoked_token_401_within_a_second_and_socket_closed(server, head):
    match_id, view = create(head, 10, random.Random(6))
    issued = head.judge_token(10)
    judge = Api(server.base, issued["token"])

    async def scenario():
        ws = await _judge_socket(server, 10, issued["token"])
        assert (await ws.recv()).startswith('{"kind":"snapshot"')
        revoked_at = time.monotonic()
        r = head.http.delete(f"/api/judge-tokens/{issued['token_id']}", headers=head.headers())
        assert r.status_code == 204
        assert judge.command(match_id, view.version, OPEN).status_code == 401
        with pytest.raises(websockets.ConnectionClosed) as closed:
            while True:
                await asyncio.wait_for(ws.recv(), 1.0)
        assert time.monotonic() - revoked_at < 1.0
        assert closed.value.rcvd.code == 4401

    run_async(scenario())


def test_foreign_origin_websocket_is_refused(server):
    async def scenario():
        # accepted only to be closed with the reason a face reads (issue 52), nothing sent
        foreign = await websockets.connect(
            f"{server.ws}/live?table=1", origin="http://evil.example"
        )
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await asyncio.wait_for(foreign.recv(), 10)
        assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (4403, "origin")
        ws = await websockets.connect(
            f"{server.ws}/live?table=1", origin=f"http://127.0.0.1:{server.port}"
        )
        assert (await ws.recv()).startswith('{"kind":"snapshot"')
        await ws.close()

    run_async(scenario())


def test_rate_limit_429(module_database_url):
    srv = Server(
        module_database_url, env={"TABLESIDE_COMMAND_RATE": "1", "TABLESIDE_COMMAND_BURST": "2"}
    ).start()
    try:
        head = Api(srv.base).login()
        # The bucket refills 1 a second while the requests run: on a loaded machine a create
        # can take longer than that, so the test sends until refused (bounded) and holds the
        # count of those let through to the burst plus what the elapsed time refilled.
        codes, start = [], time.monotonic()
        while 429 not in codes and len(codes) < 30:
            codes.append(head.create(20 + len(codes), ["a"], ["b"]).status_code)
        elapsed = time.monotonic() - start
        assert codes[:2] == [201, 201] and codes[-1] == 429, codes
        assert set(codes[:-1]) == {201} and len(codes) - 1 <= 2 + math.ceil(elapsed), codes
        r = head.create(30, ["a"], ["b"])
        assert r.json()["status"] == 429 and "retry-after" in r.headers
    finally:
        srv.stop()


def test_secretary_calls_players_but_cannot_correct(server, head):
    made = head.http.post(
        "/api/accounts",
        headers=head.headers(),
        json={"username": "sec", "role": "secretary", "password": "secretary-pw"},
    )
    assert made.status_code == 201
    secretary = Api(server.base).login("sec", "secretary-pw")
    match_id, view = create(secretary, 18, random.Random(7))
    called = secretary.command(match_id, view.version, {"type": "CallPlayers"})
    assert called.status_code == 201 and called.json()["events"][0]["type"] == "PlayersCalled"
    version = called.json()["last_version"]
    fix = {"type": "CorrectDecision", "corrects_version": 1, "reason": "x"}
    assert secretary.command(match_id, version, fix).status_code == 403
    assert secretary.command(match_id, version, OPEN).status_code == 403  # judges record
    spectator = Api(server.base)
    wait_for(
        lambda: (
            (r := spectator.get(f"/api/matches/{match_id}")).status_code == 200
            and r.json()["status"] == "called"
        )
    )
