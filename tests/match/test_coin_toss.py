"""Issue 31, point 4, the proof of the discipline port: a third discipline that exists only in
the tests (`coin_toss.py`: the coin toss and one registry line in its test app) is recorded over
HTTP, followed on /live, replayed in the audit API and exported as JSONL — with nothing of the
house changed for it."""

from __future__ import annotations

import asyncio
import json
import os
import uuid
from pathlib import Path

import pytest
import websockets
from support.harness import Api, Server, run_async
from support.recorded import auditor

BASE = "/api/disciplines/coin_toss/matches"
TOSSES = [("heads", "heads"), ("heads", "heads"), ("heads", "tails"), ("tails", "tails")]


@pytest.fixture(scope="module")
def coin_server(module_database_url: str):
    here = Path(__file__).parent
    path = os.pathsep.join(p for p in (str(here), os.environ.get("PYTHONPATH", "")) if p)
    srv = Server(module_database_url, factory="coin_toss:app", env={"PYTHONPATH": path}).start()
    yield srv
    srv.stop()


def _post(head: Api, path: str, body: dict) -> dict:
    r = head.http.post(path, headers=head.headers(), json={"command_id": str(uuid.uuid4()), **body})
    assert r.status_code == 201, r.text
    return r.json()


async def _until_won(ws, timeout: float = 30.0) -> list[dict]:
    """The feed's event messages until the match is won (bounded)."""
    got: list[dict] = []
    while not got or got[-1]["type"] != "CoinMatchWon":
        msg = json.loads(await asyncio.wait_for(ws.recv(), timeout))
        if msg["kind"] == "event":
            got.append(msg)
    return got


def test_a_test_only_discipline_is_recorded_followed_replayed_and_exported(coin_server):
    head = Api(coin_server.base).login()
    start = {"type": "Start", "a": "Ann", "b": "Bob", "first_to": 2}
    created = _post(head, BASE, {"command": start})
    match_id, version = created["match_id"], created["last_version"]

    async def record_and_follow() -> tuple[dict, list[dict]]:
        async with websockets.connect(f"{coin_server.ws}/live?match={match_id}") as ws:
            snapshot = json.loads(await asyncio.wait_for(ws.recv(), 30))
            v = version
            for call, fell in TOSSES[:3]:
                toss = {"type": "Toss", "call": call, "fell": fell}
                body = {"expected_version": v, "command": toss}
                v = (await asyncio.to_thread(_post, head, f"{BASE}/{match_id}/commands", body))[
                    "last_version"
                ]
            return snapshot, await _until_won(ws)

    snapshot, deltas = run_async(record_and_follow())
    # Followed on /live: the snapshot holds the started match, each delta the view after it.
    assert snapshot["kind"] == "snapshot" and snapshot["discipline"] == "coin_toss"
    assert snapshot["match"]["view"]["players"] == ["Ann", "Bob"]
    assert [d["type"] for d in deltas] == ["CoinTossed"] * 3 + ["CoinMatchWon"]
    assert deltas[-1]["view"]["winner"] == "B" and deltas[-1]["view"]["score"] == [1, 2]
    assert deltas[-1]["rule"] == "COIN 3"

    # Its rules refuse with the one rule error: a 422 citing the paragraph, nothing stored.
    over = {
        "expected_version": deltas[-1]["version"],
        "command": {"type": "Toss", **dict(zip(("call", "fell"), TOSSES[3], strict=True))},
    }
    r = head.http.post(
        f"{BASE}/{match_id}/commands",
        headers=head.headers(),
        json={"command_id": str(uuid.uuid4()), **over},
    )
    assert r.status_code == 422 and r.json()["rule"] == "COIN 3", r.text

    # Replayed in the audit API: the record (every event, chained), the verdict, and the view
    # after each version, as the live feed showed it.
    jury = auditor(head)
    record = jury.get(f"/api/matches/{match_id}/record").json()
    assert [e["type"] for e in record] == ["CoinMatchStarted"] + [d["type"] for d in deltas]
    assert jury.get(f"/api/matches/{match_id}/verify").json()["intact"] is True
    for d in deltas:
        at = head.get(f"{BASE}/{match_id}/at/{d['version']}").json()
        assert at["view"] == d["view"] and at["rule"] == d["rule"]

    # Exported as JSONL (and its own export section): a header, then one line per event.
    lines = jury.get(f"/api/matches/{match_id}/record.jsonl").text.splitlines()
    events = [json.loads(line) for line in lines if '"CoinTossed"' in line]
    assert len(events) == 3
    assert head.get(f"{BASE}/{match_id}/score.txt").text == f"{len(record)} events"
