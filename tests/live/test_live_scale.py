"""The live feed at scale (issue 17) and its bounds (issue 10 point 6, issue 11 point 3)."""

from __future__ import annotations

import asyncio
import json
import random
import socket
import time
import uuid

import msgspec
import pytest
import websockets
from support.harness import Api, Server, run_async
from support.play import create, fold_response
from support.raw_live import request, reset
from tableside.disciplines.korona import simulate

from live.test_live import _events, _first, _post_strokes


async def _caught_up(ws) -> list[dict]:
    """Every message up to and including caught_up."""
    got = []
    while not got or got[-1]["kind"] != "caught_up":
        got.append(await _first(ws))
    return got


def test_the_first_event_reaches_every_channel(server, head):
    """Issue 10 point 6: MatchCreated reaches match, table and competition subscribers."""
    match_id = str(uuid.uuid4())

    async def scenario():
        urls = [f"match={match_id}", "table=21", "competition=first-cup"]
        sockets = [await websockets.connect(f"{server.ws}/live?{q}") for q in urls]
        for ws in sockets:
            await _caught_up(ws)
        r = await asyncio.to_thread(
            head.create, 21, ["a"], ["b"], match_id=match_id, competition_id="first-cup"
        )
        assert r.status_code == 201, r.text
        positions = r.json()["positions"]
        for ws in sockets:
            got = await _events(ws, len(positions))
            assert [m["position"] for m in got] == positions
            assert got[0]["type"] == "MatchCreated" and got[0]["version"] == 1
            await ws.close()

    run_async(scenario())


def _stalled_spectator(server: Server, query: str) -> socket.socket:
    """A websocket client that completes the handshake and then never reads again."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", server.port))
    sock.sendall(request(server.port, f"/live?{query}"))
    assert sock.recv(12) == b"HTTP/1.1 101"
    return sock


def test_a_stalled_or_dead_spectator_never_delays_the_judge_nor_others(server, head):
    """Issue 17 point 1: replies leave when the append commits; others get every delta."""
    rng = random.Random(171)
    match_id, view = create(head, 22, rng, games=5, play_all=True)

    async def scenario():
        stalled = [_stalled_spectator(server, f"match={match_id}") for _ in range(3)]
        dead = _stalled_spectator(server, f"match={match_id}")
        dead.close()
        ws = await websockets.connect(f"{server.ws}/live?match={match_id}")
        await _caught_up(ws)
        replies = []

        def post(n):
            nonlocal view
            for _ in range(n):
                t0 = time.monotonic()
                view, positions = _post_strokes(head, match_id, view, 1, rng)
                replies.append(time.monotonic() - t0)
                yield from positions

        positions = await asyncio.to_thread(lambda: list(post(40)))
        got = await _events(ws, len(positions))
        assert [m["position"] for m in got] == positions
        assert max(replies) < 1.0, replies
        await ws.close()
        for sock in stalled:
            sock.close()

    run_async(scenario())


def test_after_zero_gets_a_snapshot_not_the_store(server, head):
    """Issue 11 point 3: twenty `after=0` connects each get one snapshot, not a replay."""
    rng = random.Random(172)
    match_id, view = create(head, 23, rng, games=3)
    _post_strokes(head, match_id, view, 5, rng)

    async def scenario():
        async def one():
            async with websockets.connect(f"{server.ws}/live?table=23&after=0") as ws:
                return await _caught_up(ws)

        t0 = time.monotonic()
        results = await asyncio.gather(*(one() for _ in range(20)))
        elapsed = time.monotonic() - t0
        for got in results:
            assert got[0]["kind"] == "snapshot"
            assert match_id in json.dumps(got[0]["matches"])
            assert all(m["kind"] != "event" or m["position"] > got[0]["position"] for m in got)
        assert elapsed < 5.0

    run_async(scenario())


@pytest.fixture(scope="module")
def limited(module_database_url):
    srv = Server(module_database_url, env={"TABLESIDE_LIVE_PER_CLIENT": "3"}).start()
    yield srv
    srv.stop()


def test_too_many_sockets_from_one_address_are_closed_with_4429(limited):
    """Issue 11 point 3: per-client connect limit, with a clear close code."""

    async def scenario():
        held = [await websockets.connect(f"{limited.ws}/live?table=24") for _ in range(3)]
        for ws in held:
            await _caught_up(ws)
        extra = await websockets.connect(f"{limited.ws}/live?table=24")
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await asyncio.wait_for(extra.recv(), 5)
        assert closed.value.rcvd.code == 4429
        await held[0].close()
        await asyncio.sleep(0.2)
        again = await websockets.connect(f"{limited.ws}/live?table=24")
        assert json.loads(await asyncio.wait_for(again.recv(), 5))["kind"] == "snapshot"
        for ws in [*held[1:], again]:
            await ws.close()

    run_async(scenario())


def test_a_spectator_gone_without_a_word_gives_its_place_back(limited):
    """Decision 0143: a caught-up spectator's socket has no task of its own; cut without a
    close frame (a phone's wifi gone), it is unsubscribed and its address's count given
    back all the same, so as many others may come."""

    async def admitted() -> bool:
        async with websockets.connect(f"{limited.ws}/live?table=26") as ws:
            try:
                return (await _caught_up(ws))[0]["kind"] == "snapshot"
            except websockets.ConnectionClosed:
                return False

    async def scenario():
        gone = [_stalled_spectator(limited, "table=26") for _ in range(3)]
        for _ in range(100):  # once counted, the three hold the address's share
            if not await admitted():
                break
            await asyncio.sleep(0.1)
        else:
            raise AssertionError("the three were never counted")
        for sock in gone:  # a reset, no close frame
            reset(sock)
        for _ in range(100):
            if await admitted():
                break
            await asyncio.sleep(0.1)
        else:
            raise AssertionError("no place given back")
        held = [await websockets.connect(f"{limited.ws}/live?table=26") for _ in range(3)]
        for ws in held:
            assert (await _caught_up(ws))[0]["kind"] == "snapshot"
            await ws.close()

    run_async(scenario())


@pytest.fixture(scope="module")
def tight(module_database_url):
    srv = Server(module_database_url, env={"TABLESIDE_LIVE_BEHIND_KIB": "64"}).start()
    yield srv
    srv.stop()


def _play_out(api: Api, table: int, seed: int) -> list[int]:
    """Create a match on `table` and play it to its end; the positions of its events."""
    rng = random.Random(seed)
    match_id, view = create(api, table, rng, games=5, play_all=True)
    positions = []
    while (cmd := simulate.next_command(view.state, rng)) is not None:
        r = api.command(match_id, view.version, msgspec.to_builtins(cmd))
        assert r.status_code == 201, r.text
        positions += r.json()["positions"]
        view = fold_response(view, match_id, r.json())
    return positions


def test_a_stalled_spectator_is_cut_once_too_far_behind(tight):
    """Issue 17 point 1: a caught-up socket that stops reading is cut once what it left
    unsent passes TABLESIDE_LIVE_BEHIND_KIB (after the kernel's own few MB on loopback), so
    its buffer never grows without bound; a reading spectator of the hall gets every delta."""

    async def scenario():
        stalled = _stalled_spectator(tight, "hall=all")
        ws = await websockets.connect(f"{tight.ws}/live?hall=all")
        await _caught_up(ws)
        apis = [Api(tight.base).login() for _ in range(4)]
        played = await asyncio.gather(
            *(asyncio.to_thread(_play_out, api, 25 + k, 173 + k) for k, api in enumerate(apis))
        )
        positions = sorted(p for match in played for p in match)
        got = [m["position"] for m in await _events(ws, len(positions) + 8, timeout=30)]
        assert got == sorted(set(got)) and set(positions) <= set(got)  # with 2 creates each
        stalled.settimeout(10)
        with pytest.raises((ConnectionResetError, BrokenPipeError)):
            while stalled.recv(1 << 20):  # what the kernel held, then the cut
                pass
            raise ConnectionResetError("closed")  # an orderly close after the 4503 is a cut too
        await ws.close()

    run_async(scenario())
