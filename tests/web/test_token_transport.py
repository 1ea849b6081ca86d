"""Issue 11, point 5: tokens only in the Authorization header (the websocket: its first
message), judge tokens expire; a demo's printed links outlive its restart (issue 52).

ASVS 5.0: V7.2.2 / V14.2.1 (no session token in the URL), V7.3.2 (absolute token lifetime),
V7.4.1 (revocation ends the session at once), V7.4.2 (tokens of a finished context revoked).
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
from datetime import UTC, datetime, timedelta

import asyncpg
import pytest
import websockets
from support.harness import Api, Server, run_async, wait_for
from support.play import create
from tableside.settings import Settings, SettingsError
from tableside.staff.accounts import judge_token_expiry

OPEN = {"type": "AssignOpeningShot", "method": "lot", "lot_winner": "A"}
AUTH = "tableside.auth"


async def judge_socket(server: Server, table: int, token: str):
    """A judge's /live socket: the subprotocol, then the token as the first message."""
    ws = await websockets.connect(f"{server.ws}/live?table={table}", subprotocols=[AUTH])
    await ws.send(json.dumps({"type": "auth", "token": token}))
    return ws


async def close_code(ws, timeout: float = 8.0) -> int:
    with pytest.raises(websockets.ConnectionClosed) as closed:
        while True:
            await asyncio.wait_for(ws.recv(), timeout)
    return closed.value.rcvd.code


def test_v14_2_1_token_in_query_refused_on_rest(server, head):
    judge_token = head.judge_token(31)["token"]
    anonymous = Api(server.base)
    for path, token in (("/api/whoami", judge_token), ("/api/judge-tokens", head.token)):
        r = anonymous.http.get(path, params={"token": token})
        assert r.status_code == 401, r.text
        assert r.headers["content-type"].startswith("application/problem+json")
        assert "Authorization header" in r.json()["title"]
    # the same token in the header still works
    assert Api(server.base, judge_token).get("/api/whoami").json()["role"] == "table_judge"


def test_v14_2_1_token_in_query_refused_on_live(server, head):
    token = head.judge_token(32)["token"]

    async def scenario():
        with pytest.raises(websockets.InvalidStatus):
            await websockets.connect(f"{server.ws}/live?table=32&token={token}")

    run_async(scenario())


def test_first_message_auth_then_revocation_closes_within_a_second(server, head):
    create(head, 33, random.Random(33))
    issued = head.judge_token(33)

    async def scenario():
        ws = await judge_socket(server, 33, issued["token"])
        assert ws.subprotocol == AUTH
        assert json.loads(await asyncio.wait_for(ws.recv(), 5))["kind"] == "snapshot"
        revoked_at = time.monotonic()
        r = head.http.delete(f"/api/judge-tokens/{issued['token_id']}", headers=head.headers())
        assert r.status_code == 204
        assert await close_code(ws, 1.0) == 4401
        assert time.monotonic() - revoked_at < 1.0

    run_async(scenario())


def test_first_message_wrong_or_missing_token_closes_4401(server, head):
    async def scenario():
        bad = await judge_socket(server, 34, "tj_not-a-token")
        assert await close_code(bad) == 4401
        garbage = await websockets.connect(f"{server.ws}/live?table=34", subprotocols=[AUTH])
        await garbage.send("hello")
        assert await close_code(garbage) == 4401
        silent = await websockets.connect(f"{server.ws}/live?table=34", subprotocols=[AUTH])
        started = time.monotonic()
        assert await close_code(silent) == 4401  # no auth message: closed after ~5 s
        assert 4.0 < time.monotonic() - started < 8.0

    run_async(scenario())


def test_judge_socket_for_another_table_is_refused(server, head):
    token = head.judge_token(35)["token"]

    async def scenario():
        ws = await judge_socket(server, 36, token)
        assert await close_code(ws) == 4403

    run_async(scenario())


def test_spectator_socket_needs_no_auth(server):
    async def scenario():
        ws = await websockets.connect(f"{server.ws}/live?table=37")
        assert json.loads(await asyncio.wait_for(ws.recv(), 5))["kind"] == "snapshot"
        await ws.close()

    run_async(scenario())


def test_v7_3_2_expired_judge_token_is_401(server, head, module_database_url):
    match_id, view = create(head, 38, random.Random(38))
    issued = head.judge_token(38)
    judge = Api(server.base, issued["token"])
    listed = {t["token_id"]: t for t in head.get("/api/judge-tokens").json()}
    assert datetime.fromisoformat(listed[issued["token_id"]]["expires_at"]) > datetime.now(UTC)

    async def expire():
        conn = await asyncpg.connect(module_database_url)
        try:  # the clock moves past the expiry
            await conn.execute(
                "UPDATE judge_tokens SET expires_at = now() - interval '1 second' "
                "WHERE token_id = $1",
                issued["token_id"],
            )
        finally:
            await conn.close()

    run_async(expire())
    r = judge.command(match_id, view.version, OPEN)
    assert r.status_code == 401 and r.json()["status"] == 401
    assert judge.get("/api/whoami").status_code == 401
    assert issued["token_id"] not in {t["token_id"] for t in head.get("/api/judge-tokens").json()}

    async def scenario():
        ws = await judge_socket(server, 38, issued["token"])
        assert await close_code(ws) == 4401

    run_async(scenario())


def test_judge_token_lifetime_setting(module_database_url):
    srv = Server(module_database_url, env={"TABLESIDE_JUDGE_TOKEN_HOURS": "2"}).start()
    try:
        head = Api(srv.base).login()
        issued = head.judge_token(39)
        listed = {t["token_id"]: t for t in head.get("/api/judge-tokens").json()}
        left = datetime.fromisoformat(listed[issued["token_id"]]["expires_at"]) - datetime.now(UTC)
        assert timedelta(hours=1, minutes=58) < left <= timedelta(hours=2)
    finally:
        srv.stop()


def test_default_lifetime_is_the_competition_day():
    tz = datetime.now().astimezone().tzinfo
    morning = datetime(2026, 5, 9, 9, 30, tzinfo=tz)
    assert judge_token_expiry(morning) == datetime(2026, 5, 10, 4, 0, tzinfo=tz)
    after_midnight = datetime(2026, 5, 10, 1, 0, tzinfo=tz)  # a late night: 04:00 is too soon
    assert judge_token_expiry(after_midnight) == datetime(2026, 5, 11, 4, 0, tzinfo=tz)
    assert judge_token_expiry(morning, 3) == morning + timedelta(hours=3)
    assert Settings.from_env({"TABLESIDE_JUDGE_TOKEN_HOURS": "0.5"}).judge_token_hours == 0.5
    with pytest.raises(SettingsError):
        Settings.from_env({"TABLESIDE_JUDGE_TOKEN_HOURS": "forever"})
    with pytest.raises(SettingsError, match="TABLESIDE_LOGIN_FAILURES must be at least 1"):
        Settings.from_env({"TABLESIDE_LOGIN_FAILURES": "0"})


def test_v7_4_2_a_demo_restart_keeps_its_printed_links(new_database, tmp_path):
    """Issue 52, point 7 (decision 0176): a restart of the same demo is not a new context,
    so the links it printed keep working (they 401'd, and the pad showed only "offline");
    the restart prints five more, and every token still ends at its own expiry."""
    url = new_database()
    demo = {"TABLESIDE_DEMO": "1"}
    log = tmp_path / "first.log"

    def demo_tokens(srv: Server) -> set[str]:
        listed = Api(srv.base).login().get("/api/judge-tokens").json()
        return {t["token_id"] for t in listed if t["issued_by"] == "demo"}

    def printed() -> list[str]:
        return re.findall(r"table \d+ judge: \S+#token=(tj_[\w-]+)", log.read_text())

    first = Server(url, env=demo, output=str(log)).start()
    try:
        links = wait_for(lambda: len(found := printed()) == 5 and found, 20)
        old = wait_for(lambda: (ids := demo_tokens(first)) and len(ids) == 5 and ids, 20)
    finally:
        first.stop()
    second = Server(url, env=demo).start()
    try:
        # the demo issues its five one by one: wait for all of them (a loaded machine saw 3)
        new = wait_for(lambda: (ids := demo_tokens(second)) and len(ids - old) == 5 and ids, 20)
        assert old <= new, "the first run's links still stand"
        for token in links:
            assert Api(second.base, token).get("/api/whoami").json()["role"] == "table_judge"
    finally:
        second.stop()
