"""KSI 1.6.4 at the federation's remote live relay: a match whose spectators the TD barred at
a player's request reaches remote spectators as the notice only — its snapshot on its stream
and every event after the bar carry no payload, the code and the paragraph instead — while the
events before the bar, and after it is lifted, are the venue's own."""

from __future__ import annotations

import asyncio
import json
import uuid

from support.harness import Api, run_async
from support.relay_setup import pushed, venue_and_nodes
from websockets.asyncio.client import connect

PATH = "/api/federation/live"


def _post(head: Api, match_id: str, version: int, command: dict) -> int:
    body = {"command_id": str(uuid.uuid4()), "expected_version": version, "command": command}
    r = head.http.post(
        f"/api/backgammon/matches/{match_id}/commands", json=body, headers=head.headers()
    )
    assert r.status_code == 201, r.text
    return r.json()["last_version"]


async def _caught_up(node_ws: str, venue: str, stream: str) -> list[dict]:
    """A remote spectator's events of the stream: its snapshot's, then those until caught up."""
    events: list[dict] = []
    async with connect(f"{node_ws}{PATH}?venue={venue}&stream={stream}", open_timeout=30) as ws:
        while (msg := json.loads(await asyncio.wait_for(ws.recv(), 30)))["kind"] != "caught_up":
            if msg["kind"] == "snapshot":
                events += msg["events"]
            elif msg["kind"] == "event":
                events.append(msg)
    return events


def test_ksi_1_6_4_remote_spectators_get_only_the_notice(
    new_database, federation_database, tmp_path
) -> None:
    url = new_database()
    with venue_and_nodes(url, federation_database, tmp_path, 1) as (venue, nodes, vid):
        head = Api(venue.base).login()
        body = {"command_id": str(uuid.uuid4()), "player_a": "Ása", "player_b": "Bjarni",
                "length": 3}  # fmt: skip
        r = head.http.post("/api/backgammon/matches", json=body, headers=head.headers())
        assert r.status_code == 201, r.text
        match_id, v = r.json()["match_id"], r.json()["last_version"]
        v = _post(head, match_id, v, {"type": "StartGame"})
        v = _post(head, match_id, v, {"type": "BarSpectators", "requested_by": "A"})
        v = _post(head, match_id, v, {"type": "RollOpening", "die_a": 3, "die_b": 1})
        pushed(nodes[0].base, vid, url)
        events = run_async(_caught_up(nodes[0].ws, vid, match_id))
        assert [e["version"] for e in events] == list(range(1, v + 1))
        before, barred = events[:2], events[2:]
        assert all("payload" in e and "barred" not in e for e in before)
        for e in barred:
            assert e["barred"] is True and e["code"] == "bg_spectators_barred", e
            assert e["rule"] == "KSI 1.6.4" and "payload" not in e and "type" not in e

        v = _post(head, match_id, v, {"type": "AdmitSpectators"})
        pushed(nodes[0].base, vid, url)
        events = run_async(_caught_up(nodes[0].ws, vid, match_id))
        assert events[-1]["type"] == "BgSpectatorsAdmitted" and "payload" in events[-1]


async def _resumed(node_ws: str, venue: str, stream: str, after: int) -> list[dict]:
    """A remote spectator's events of the stream on a resume after `after`, until caught up."""
    url = f"{node_ws}{PATH}?venue={venue}&stream={stream}&after={after}"
    async with connect(url, open_timeout=30) as ws:
        events = []
        while (msg := json.loads(await asyncio.wait_for(ws.recv(), 30)))["kind"] != "caught_up":
            assert msg["kind"] != "snapshot", msg
            events += [msg] if msg["kind"] == "event" else []
    return events


def test_ksi_1_6_4_a_resume_older_than_the_ring_gets_only_the_notice(
    new_database, federation_database, tmp_path
) -> None:
    """The kept rows a resume further back than the node's ring is sent are barred as the ring's
    deltas are: no payload after the bar (they once carried it, and a `board` of the flag)."""
    url, ring = new_database(), {"TABLESIDE_FEDERATION_RELAY_RING": "2"}
    with venue_and_nodes(url, federation_database, tmp_path, 1, fed_env=ring) as (
        venue,
        nodes,
        vid,
    ):
        head = Api(venue.base).login()
        body = {"command_id": str(uuid.uuid4()), "player_a": "Ása", "player_b": "Bjarni",
                "length": 3}  # fmt: skip
        r = head.http.post("/api/backgammon/matches", json=body, headers=head.headers())
        assert r.status_code == 201, r.text
        match_id, v = r.json()["match_id"], r.json()["last_version"]
        v = _post(head, match_id, v, {"type": "StartGame"})
        v = _post(head, match_id, v, {"type": "BarSpectators", "requested_by": "A"})
        v = _post(head, match_id, v, {"type": "RollOpening", "die_a": 3, "die_b": 1})
        v = _post(head, match_id, v, {"type": "AdmitSpectators"})
        pushed(nodes[0].base, vid, url)
        first = run_async(_caught_up(nodes[0].ws, vid, match_id))[0]["position"]
        events = run_async(_resumed(nodes[0].ws, vid, match_id, first))
        assert [e["version"] for e in events] == list(range(2, v + 1))
        assert all(not isinstance(e.get("board"), bool) for e in events), events
        started, barred, rolled, admitted = events
        assert "payload" in started and "barred" not in started
        for e in (barred, rolled):
            assert e["barred"] is True and "payload" not in e, e
        assert admitted["type"] == "BgSpectatorsAdmitted" and "payload" in admitted
