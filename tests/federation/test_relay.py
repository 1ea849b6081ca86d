"""The remote live relay (issue 51): a venue's live events reach remote spectators on the
federation's nodes — a snapshot, then every position once, in order; resume with `after`;
the snapshot cacheable over HTTP; a node full refuses with its code and a retry hint."""

from __future__ import annotations

import asyncio
import json

import httpx
from support.harness import Api, run_async, wait_for
from support.recorded import record_match
from support.relay_setup import pushed, venue_and_nodes
from support.remote_crowd import PATH, Crowd
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed


def test_remote_spectators_on_two_nodes_see_every_event_once_in_order(
    new_database, federation_database, tmp_path
) -> None:
    url = new_database()
    with venue_and_nodes(url, federation_database, tmp_path, 2) as (venue, nodes, vid):
        crowd = Crowd([n.ws for n in nodes], vid, 20).start()
        try:
            wait_for(lambda: crowd.all(lambda s: s.caught_up), timeout=60)
            record_match(Api(venue.base).login(), table=1, games=1)
            head = pushed(nodes[0].base, vid, url)
            wait_for(lambda: crowd.all(lambda s: s.last == head), timeout=60)
        finally:
            crowd.stop()
        for s in crowd.spectators:
            assert (s.gaps, s.duplicates, s.resets) == (0, 0, 0)
            assert s.events == head - s.start
            assert s.notices and s.notices[-1]["state"] == "online"


def test_the_snapshot_is_cacheable_and_a_resume_gets_only_what_followed(
    new_database, federation_database, tmp_path
) -> None:
    url = new_database()
    ring = {"TABLESIDE_FEDERATION_RELAY_RING": "8"}  # a resume 5 back: the ring; 30: the rows
    with venue_and_nodes(url, federation_database, tmp_path, 1, fed_env=ring) as (
        venue,
        nodes,
        vid,
    ):
        node = nodes[0]
        record_match(Api(venue.base).login(), table=1, games=1)
        head = pushed(node.base, vid, url)
        r = httpx.get(f"{node.base}/api/federation/live/{vid}", timeout=10)
        assert r.status_code == 200
        assert "public" in r.headers["cache-control"] and r.headers["etag"]
        snap = r.json()
        assert snap["position"] == head and snap["streams"]
        again = httpx.get(
            f"{node.base}/api/federation/live/{vid}",
            headers={"If-None-Match": r.headers["etag"]},
            timeout=10,
        )
        assert again.status_code == 304
        stream = snap["streams"][0]["stream"]
        one = httpx.get(f"{node.base}/api/federation/live/{vid}?stream={stream}", timeout=10)
        assert [e["stream"] for e in one.json()["events"]] == [stream] * len(one.json()["events"])

        async def resume(back: int) -> list[dict]:
            got = []
            url = f"{node.ws}{PATH}?venue={vid}&after={head - back}"
            async with connect(url, open_timeout=20) as ws:
                while not got or got[-1]["kind"] != "caught_up":
                    got.append(json.loads(await asyncio.wait_for(ws.recv(), 20)))
            return got

        for back in (5, 30):
            got = run_async(resume(back))
            assert [m["position"] for m in got if m["kind"] == "event"] == list(
                range(head - back + 1, head + 1)
            )
            assert [m["kind"] for m in got][-2:] == ["venue", "caught_up"]
        assert httpx.get(f"{node.base}/api/federation/live/{vid}?stream=x").status_code == 400


def test_a_full_node_refuses_with_its_code_and_a_retry_hint(
    new_database, federation_database, tmp_path
) -> None:
    env = {"TABLESIDE_FEDERATION_RELAY_SOCKETS": "2"}
    with venue_and_nodes(new_database(), federation_database, tmp_path, 1, fed_env=env) as (
        _,
        nodes,
        vid,
    ):
        url = f"{nodes[0].ws}{PATH}?venue={vid}"

        async def third() -> tuple[int, str]:
            async with connect(url) as a, connect(url) as b:
                for ws in (a, b):
                    while json.loads(await asyncio.wait_for(ws.recv(), 20))["kind"] != "caught_up":
                        pass
                async with connect(url) as c:
                    try:
                        await asyncio.wait_for(c.recv(), 20)
                    except ConnectionClosed as closed:
                        return closed.rcvd.code, closed.rcvd.reason
            return 0, ""

        code, reason = run_async(third())
        assert code == 1013 and reason.startswith("retry in ")

        async def bad(query: str) -> int:
            async with connect(f"{nodes[0].ws}{PATH}?{query}") as ws:
                try:
                    await asyncio.wait_for(ws.recv(), 20)
                except ConnectionClosed as closed:
                    return closed.rcvd.code
            return 0

        assert run_async(bad("venue=nope")) == 4400
        assert run_async(bad("venue=00000000-0000-0000-0000-000000000000")) == 4404
