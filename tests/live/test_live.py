"""The live feed: snapshot then deltas; `after` replays exactly what was missed; two servers."""

from __future__ import annotations

import asyncio
import json
import random

import msgspec
import pytest
import websockets
from support.harness import Api, Server, run_async, wait_for
from support.play import create, fold_response
from tableside.disciplines.korona import simulate


def _post_strokes(head: Api, match_id, view, n: int, rng: random.Random):
    """Post n simulated commands (strokes mostly); returns the new view and their positions."""
    positions = []
    for _ in range(n):
        cmd = simulate.next_command(view.state, rng)
        r = head.command(match_id, view.version, msgspec.to_builtins(cmd))
        assert r.status_code == 201, r.text
        positions += r.json()["positions"]
        view = fold_response(view, match_id, r.json())
    return view, positions


async def _events(ws, count: int, timeout: float = 10.0) -> list[dict]:
    got = []
    while len(got) < count:
        msg = json.loads(await asyncio.wait_for(ws.recv(), timeout))
        if msg["kind"] == "event":
            got.append(msg)
    return got


async def _events_until(ws, position: int, timeout: float = 10.0) -> list[dict]:
    got = []
    while not got or got[-1]["position"] < position:
        msg = json.loads(await asyncio.wait_for(ws.recv(), timeout))
        if msg["kind"] == "event":
            got.append(msg)
    return got


async def _first(ws) -> dict:
    return json.loads(await asyncio.wait_for(ws.recv(), 5))


def test_snapshot_then_deltas(server, head):
    rng = random.Random(21)
    match_id, view = create(head, 11, rng, games=3)

    async def scenario():
        ws = await websockets.connect(f"{server.ws}/live?match={match_id}")
        snapshot = await _first(ws)
        assert snapshot["kind"] == "snapshot" and isinstance(snapshot["position"], int)
        _, positions = await asyncio.to_thread(_post_strokes, head, match_id, view, 5, rng)
        got = await _events_until(ws, positions[-1])
        seen = [m["position"] for m in got]
        # A snapshot taken before the read model caught up is followed by the events it
        # lacked (the match's creation), in order and once: the strokes are the tail.
        assert seen == sorted(set(seen)) and seen[0] > snapshot["position"]
        assert seen[-len(positions) :] == positions
        assert got[-1]["live"]["version"] == got[-1]["version"]
        await ws.close()

    run_async(scenario())


def test_a_ping_is_answered_with_a_pong_and_the_feed_goes_on(server, head):
    """A browser sees no protocol pings, so live.js asks when the feed has been quiet: the server
    answers at once, on a caught-up socket (written by the fan-out) too, and the deltas that
    follow still come, in order."""
    rng = random.Random(23)
    match_id, view = create(head, 14, rng, games=3)

    async def scenario():
        ws = await websockets.connect(f"{server.ws}/live?match={match_id}")
        while (await _first(ws))["kind"] != "caught_up":
            pass
        await ws.send('{"type":"ping"}')
        assert await _first(ws) == {"kind": "pong"}
        _, positions = await asyncio.to_thread(_post_strokes, head, match_id, view, 2, rng)
        await ws.send('{"type":"ping"}')
        got, pongs = [], 0
        while not got or got[-1]["position"] < positions[-1] or not pongs:
            msg = await _first(ws)
            pongs += msg == {"kind": "pong"}
            got += [msg] if msg["kind"] == "event" else []
        assert [m["position"] for m in got][-len(positions) :] == positions
        await ws.close()

    run_async(scenario())


def test_reconnect_with_after_gets_exactly_the_missed_events(server, head):
    rng = random.Random(22)
    match_id, view = create(head, 12, rng, games=5, play_all=True)
    view, _ = _post_strokes(head, match_id, view, 3, rng)

    async def scenario():
        ws = await websockets.connect(f"{server.ws}/live?match={match_id}")
        last = (await _first(ws))["position"]
        while (msg := await _first(ws))["kind"] != "caught_up":
            last = msg["position"]
        last = msg["position"]
        await ws.close()
        missed = []
        v = view
        while len(missed) < 50:  # 50 events, whatever commands they take
            v, positions = await asyncio.to_thread(_post_strokes, head, match_id, v, 1, rng)
            missed += positions
        missed = missed[:50]
        ws = await websockets.connect(f"{server.ws}/live?match={match_id}&after={last}")
        got = await _events(ws, 50)
        assert [m["position"] for m in got] == missed
        assert [m["version"] for m in got] == sorted(m["version"] for m in got)
        await ws.close()

    run_async(scenario())


def test_two_servers_both_see_every_event(server, head, module_database_url):
    """The other server runs uvicorn's older websockets implementation, where the fan-out
    cannot write to a socket directly (live/direct.py): its sockets pump from their own task,
    none detached (`/health`'s `live`)."""
    other = Server(module_database_url, args=("--ws", "websockets")).start()
    rng = random.Random(23)
    try:
        match_id, view = create(head, 13, rng, games=3, competition_id="cup")

        async def scenario():
            a = await websockets.connect(f"{server.ws}/live?competition=cup")
            b = await websockets.connect(f"{other.ws}/live?table=13")
            for ws in (a, b):
                while (await _first(ws))["kind"] != "caught_up":
                    pass
            # the fast path off there (test_fast_path.py: on here): after its pong, still no
            # socket of that server is detached
            await b.send('{"type":"ping"}')
            assert await _first(b) == {"kind": "pong"}
            seen = await asyncio.to_thread(Api(other.base).get, "/health")
            assert seen.json()["live"] == {"sockets": 1, "detached": 0}
            writer = Api(other.base).login()
            _, positions = await asyncio.to_thread(_post_strokes, writer, match_id, view, 10, rng)
            for ws in (a, b):
                got = await _events(ws, len(positions))
                assert [m["position"] for m in got] == positions
                await ws.close()

        run_async(scenario())
    finally:
        other.stop()


def test_the_hall_feed_carries_every_table(server, head):
    """`/live?hall=all` (issue 13): a snapshot of every table's match, then the deltas of
    the matches on every table, whoever created them."""
    rng = random.Random(8)
    on_22, _ = create(head, 22, rng, games=1)
    wait_for(lambda: head.get("/api/tables/22").json().get("match_id") == on_22)

    async def scenario():
        ws = await websockets.connect(f"{server.ws}/live?hall=all")
        snapshot = await _first(ws)
        assert snapshot["kind"] == "snapshot" and snapshot["filter"] == {"hall": "all"}
        assert str(on_22) in {m["match_id"] for m in snapshot["matches"]}
        on_23, view23 = await asyncio.to_thread(create, head, 23, rng, games=1)
        _, positions = await asyncio.to_thread(_post_strokes, head, on_23, view23, 3, rng)
        got = await _events_until(ws, positions[-1])
        assert {m["match_id"] for m in got} == {str(on_23)}
        assert got[0]["version"] == 1  # its creation too (stored before the table is named)
        assert {m["live"]["table"] for m in got[1:]} == {23}
        await ws.close()

    run_async(scenario())


def test_a_hall_filter_other_than_all_is_refused(server):
    async def scenario():
        with pytest.raises(websockets.InvalidStatus):  # refused before the handshake ends
            await websockets.connect(f"{server.ws}/live?hall=5")

    run_async(scenario())
