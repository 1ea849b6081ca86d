"""A backgammon match on the live feed, over real websockets: its snapshot (the board at its
version and the recent events), one delta per stored event in order while the match is played
over HTTP, resume after a disconnect with no gap and no duplicate, a korona subscriber
unaffected, and the spectators' public list."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import uuid

import msgspec
import pytest
import websockets
from support.harness import Api, run_async
from support.play import create, fold_response
from tableside.disciplines.backgammon import commands as c
from tableside.disciplines.backgammon import decide, fold, initial_state
from tableside.disciplines.backgammon.simulate import next_command
from tableside.disciplines.korona import simulate as korona


class BgMatch:
    """A backgammon match played over HTTP with the engine's random legal commands."""

    def __init__(self, api: Api, seed: int, length: int = 3) -> None:
        self.api, self.rng = api, random.Random(seed)
        body = {"command_id": str(uuid.uuid4()), "player_a": "Ása", "player_b": "Bjarni",
                "length": length}  # fmt: skip
        r = api.http.post("/api/backgammon/matches", json=body, headers=api.headers())
        assert r.status_code == 201, r.text
        self.id, self.version = r.json()["match_id"], r.json()["last_version"]
        self.positions = r.json()["positions"]
        created = c.CreateMatch(match_id="x", player_a="Ása", player_b="Bjarni", length=length)
        self.state = fold(decide(initial_state(), created))

    def play(self, commands: int) -> list[int]:
        """Post `commands` commands; the global positions of the events they stored."""
        positions = []
        for _ in range(commands):
            if self.state.over:
                break
            cmd = next_command(self.state, self.rng)
            body = {"command_id": str(uuid.uuid4()), "expected_version": self.version,
                    "command": msgspec.to_builtins(cmd)}  # fmt: skip
            r = self.api.http.post(
                f"/api/backgammon/matches/{self.id}/commands", json=body, headers=self.api.headers()
            )
            assert r.status_code == 201, (cmd, r.text)
            self.version = r.json()["last_version"]
            positions += r.json()["positions"]
            self.state = fold(decide(self.state, cmd), self.state)
        return positions


async def _message(ws) -> dict:
    return json.loads(await asyncio.wait_for(ws.recv(), 10))


async def _until_caught_up(ws) -> tuple[dict, list[dict]]:
    """The snapshot (or None after `after`) and the deltas before `caught_up`."""
    first, deltas = None, []
    while (msg := await _message(ws))["kind"] != "caught_up":
        if msg["kind"] == "snapshot":
            first = msg
        else:
            deltas.append(msg)
    return first, deltas


@contextlib.asynccontextmanager
async def _following(server, query: str):
    """A socket on `/live?<query>` past its `caught_up`: (socket, snapshot, deltas before it)."""
    async with websockets.connect(f"{server.ws}/live?{query}") as ws:
        snapshot, deltas = await _until_caught_up(ws)
        yield ws, snapshot, deltas


async def _deltas_until(ws, position: int) -> list[dict]:
    got = []
    while not got or got[-1]["position"] < position:
        msg = await _message(ws)
        assert msg["kind"] == "event", msg
        got.append(msg)
    return got


def test_snapshot_is_the_board_at_its_version_with_the_recent_events(server, head):
    match = BgMatch(head, seed=1)
    match.play(6)

    async def scenario():
        async with _following(server, f"match={match.id}") as (_, snapshot, deltas):
            assert snapshot["discipline"] == "backgammon" and snapshot["matches"] == []
            bg = snapshot["backgammon"]
            assert bg["version"] == match.version == bg["board"]["version"]
            assert bg["board"]["players"] == ["Ása", "Bjarni"]
            assert bg["board"]["score"] == list(match.state.score)
            entries = bg["entries"]
            assert (
                entries[0]["type"] == "BgMatchCreated" and entries[-1]["version"] == match.version
            )
            assert all(
                e["rule"].startswith("KSI ") and e["event"]["type"] == e["type"] for e in entries
            )
            assert snapshot["position"] >= entries[-1]["position"] and deltas == []

    run_async(scenario())


def test_the_snapshot_keeps_the_matchs_disputes_however_long_ago(server, head):
    """/watch keeps the whole match's disputes: a call, ruling and appeal from early on are
    in the snapshot after more than RECENT events (KSI 5.1, 5.2)."""
    match = BgMatch(head, seed=4, length=7)
    match.play(2)
    for cmd in (c.CallTD(side="A", reason="a cocked die?"), c.GiveRuling(text="it stands")):
        body = {"command_id": str(uuid.uuid4()), "expected_version": match.version,
                "command": msgspec.to_builtins(cmd)}  # fmt: skip
        r = head.http.post(
            f"/api/backgammon/matches/{match.id}/commands", json=body, headers=head.headers()
        )
        assert r.status_code == 201, r.text
        match.version = r.json()["last_version"]
        match.state = fold(decide(match.state, cmd), match.state)
    match.play(60)
    assert match.version > 45

    async def scenario():
        async with _following(server, f"match={match.id}") as (_, snapshot, _deltas):
            types = [e["type"] for e in snapshot["backgammon"]["entries"]]
            assert types[:2] == ["BgTDCalled", "BgRulingGiven"], types[:5]
            assert len(types) == 32

    run_async(scenario())


def test_one_delta_per_event_in_order_with_the_board_after_it(server, head):
    match = BgMatch(head, seed=2)

    async def scenario():
        async with _following(server, f"match={match.id}") as (ws, _, _):
            positions = await asyncio.to_thread(match.play, 12)
            got = await _deltas_until(ws, positions[-1])
            assert [m["position"] for m in got] == positions
            assert [m["version"] for m in got] == list(range(got[0]["version"], match.version + 1))
            assert all(m["discipline"] == "backgammon" and m["match_id"] == match.id for m in got)
            assert all(m["board"]["version"] == m["version"] for m in got)
            assert all(m["rule"] == m["event"]["rule"] and m["rule"].startswith("KSI") for m in got)
            last = got[-1]["board"]
            assert last["score"] == list(match.state.score)
            assert last["position"]["A"] == list(match.state.game.position[0])

    run_async(scenario())


def test_resume_after_a_disconnect_gets_exactly_what_was_missed(server, head):
    match = BgMatch(head, seed=3)
    match.play(4)

    async def scenario():
        ws = await websockets.connect(f"{server.ws}/live?match={match.id}")
        snapshot, _ = await _until_caught_up(ws)
        seen = await asyncio.to_thread(match.play, 3)
        last = (await _deltas_until(ws, seen[-1]))[-1]["position"]
        await ws.close()
        missed = await asyncio.to_thread(match.play, 10)
        async with _following(server, f"match={match.id}&after={last}") as replay:
            again, first, replayed = replay
            assert first is None  # a replay, not a snapshot
            assert [m["position"] for m in replayed] == missed
            more = await asyncio.to_thread(match.play, 2)
            live = await _deltas_until(again, more[-1])
            assert [m["position"] for m in live] == more
        assert snapshot["position"] < seen[0]

    run_async(scenario())


def _korona_strokes(head: Api, match_id, view, n: int, rng: random.Random) -> list[int]:
    positions = []
    for _ in range(n):
        r = head.command(
            match_id, view.version, msgspec.to_builtins(korona.next_command(view.state, rng))
        )
        assert r.status_code == 201, r.text
        positions += r.json()["positions"]
        view = fold_response(view, match_id, r.json())
    return positions


def test_a_korona_subscriber_is_unaffected(server, head):
    rng = random.Random(5)
    korona_id, view = create(head, 31, rng, games=1)
    match = BgMatch(head, seed=4)

    async def scenario():
        async with (
            websockets.connect(f"{server.ws}/live?match={korona_id}") as ws,
            websockets.connect(f"{server.ws}/live?hall=all") as hall,
        ):
            snapshot, _ = await _until_caught_up(ws)
            assert "backgammon" not in snapshot and snapshot["filter"] == {"match": str(korona_id)}
            await _until_caught_up(hall)
            await asyncio.to_thread(match.play, 5)  # nothing of it on a korona channel …
            strokes = await asyncio.to_thread(_korona_strokes, head, korona_id, view, 3, rng)
            for feed in (ws, hall):  # … which carries its own deltas, in order, as before
                got = await _deltas_until(feed, strokes[-1])
                assert [m["position"] for m in got] == strokes
                assert all(m["match_id"] == str(korona_id) and "live" in m for m in got)

    run_async(scenario())


def test_the_backgammon_hall_lists_the_matches_then_every_delta(server, head):
    before = BgMatch(head, seed=7)
    before.play(2)

    async def scenario():
        async with _following(server, "hall=backgammon") as (ws, snapshot, replayed):
            assert snapshot["filter"] == {"hall": "backgammon"}
            listed = {m["match_id"] for m in snapshot["backgammon_matches"]}
            # the read model may lag: what it lacks follows as deltas, once
            assert before.id in listed or before.id in {m["match_id"] for m in replayed}
            started = await asyncio.to_thread(BgMatch, head, 8)
            positions = started.positions + await asyncio.to_thread(started.play, 4)
            positions += await asyncio.to_thread(before.play, 2)
            got = await _deltas_until(ws, positions[-1])
            assert [m["position"] for m in got] == positions
            assert got[0]["type"] == "BgMatchCreated" and got[0]["match_id"] == started.id
            assert got[-1]["board"]["score"] == list(before.state.score)
        with pytest.raises(websockets.InvalidStatus):  # a hall nobody registered
            await websockets.connect(f"{server.ws}/live?hall=darts")

    run_async(scenario())


def test_the_public_list_of_matches_being_played(server, head):
    match = BgMatch(head, seed=6)
    match.play(3)
    r = head.http.get("/api/backgammon/live", params={"min_position": match.positions[-1]})
    assert r.status_code == 200, r.text
    row = next(m for m in r.json() if m["match_id"] == match.id)
    assert row["players"] == ["Ása", "Bjarni"] and row["status"] == "playing"
    public = {"match_id", "players", "length", "score", "games", "status", "winner"}
    assert set(row) == {*public, "competition_id"} and row["competition_id"] is None  # its own
    assert head.http.get("/api/backgammon/live", params={"limit": 0}).status_code == 400
