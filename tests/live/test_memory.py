"""What a connect is served from (issue 42): the hub's ring and the channels' single flights."""

from __future__ import annotations

import asyncio

import pytest
from tableside.live.flights import Flights, ReadAfter
from tableside.live.ring import Ring


def test_the_ring_holds_every_channels_last_deltas_and_says_from_where():
    async def scenario():
        ring = Ring(size=4)
        assert not ring.covers(0)  # the hub has not begun: nothing is served from here
        ring.begin(10)
        for position in range(11, 17):
            ring.add(position, b"%d" % position, ("match:a",) if position % 2 else ("match:b",))
        assert ring.start == 12 and ring.covers(12) and not ring.covers(11)
        assert ring.after(12, "match:a") == [(13, b"13"), (15, b"15")]
        assert ring.after(13, "match:b") == [(14, b"14"), (16, b"16")]
        assert ring.after(16, "match:a") == [] and ring.covers(99)  # the rest is yet to come

    asyncio.run(scenario())


def test_a_socket_waits_for_the_hub_bounded():
    async def scenario():
        ring = Ring()
        ring.begin(5)
        assert await ring.reached(5, 0.01)
        assert not await ring.reached(8, 0.05)  # bounded: False, never a hang
        waiting = asyncio.ensure_future(ring.reached(8, 5))
        await asyncio.sleep(0)
        ring.reach(7)
        await asyncio.sleep(0)
        assert not waiting.done()
        ring.reach(9)
        assert await waiting

    asyncio.run(scenario())


def test_a_crowd_asking_at_once_costs_one_build():
    async def scenario():
        flights: Flights[tuple[int, bytes]] = Flights(stale=lambda v: v[0] < 10)
        started = asyncio.Event()
        release = asyncio.Event()

        async def build():
            started.set()
            await release.wait()
            return 10, b"snapshot"

        askers = [asyncio.ensure_future(flights.get("match:a", build, 5)) for _ in range(500)]
        await started.wait()
        release.set()
        assert {await a for a in askers} == {(10, b"snapshot")}
        assert flights.builds == 1
        assert await flights.get("match:a", build, 5) == (10, b"snapshot")  # kept
        assert flights.builds == 1

    asyncio.run(scenario())


def test_a_stale_value_is_built_again_and_a_failed_build_fails_its_askers_only():
    async def scenario():
        now = {"position": 10}
        flights: Flights[int] = Flights(stale=lambda v: v < now["position"])

        async def build():
            return now["position"]

        assert await flights.get("k", build, 1) == 10
        now["position"] = 20
        assert await flights.get("k", build, 1) == 20 and flights.builds == 2

        async def broken():
            raise OSError("database away")

        now["position"] = 30
        with pytest.raises(OSError):
            await flights.get("k", broken, 1)
        assert await flights.get("k", build, 1) == 30  # the next asker builds afresh

    asyncio.run(scenario())


def test_a_published_value_wins_over_a_flight_in_the_air():
    async def scenario():
        flights: Flights[bytes] = Flights(stale=lambda _: False)
        release = asyncio.Event()

        async def read():
            await release.wait()
            return b"read before the publish"

        asker = asyncio.ensure_future(flights.get("competition:c", read, 5))
        await asyncio.sleep(0)
        flights.put("competition:c", b"published")
        release.set()
        assert await asker == b"read before the publish"  # its asker gets what it read
        assert flights.cached("competition:c") == b"published"  # the next ones the newer

    asyncio.run(scenario())


def test_a_slow_build_times_its_askers_out_and_is_kept_for_the_next():
    async def scenario():
        flights: Flights[int] = Flights(stale=lambda _: False)

        async def slow():
            await asyncio.sleep(0.2)
            return 1

        with pytest.raises(TimeoutError):
            await flights.get("k", slow, 0.01)
        assert await flights.get("k", slow, 5) == 1 and flights.builds == 1

    asyncio.run(scenario())


def test_a_head_read_after_the_asker_came_one_at_a_time_for_a_crowd():
    """ReadAfter: an asker never gets a read that was in the air when it came (it may predate
    the asker's own event); the crowd arriving meanwhile shares the next read."""

    async def scenario():
        heads: ReadAfter[int] = ReadAfter()
        stored = [5]
        gate = asyncio.Event()

        async def read():
            value = stored[0]
            await gate.wait()
            return value

        early = asyncio.ensure_future(heads.get(read, 5))
        while heads.reads == 0:
            await asyncio.sleep(0)  # until its read is in the air, having read 5
        stored[0] = 6  # then an event is stored, and a crowd comes
        crowd = [asyncio.ensure_future(heads.get(read, 5)) for _ in range(300)]
        await asyncio.sleep(0)
        gate.set()
        assert await early == 5
        assert {await c for c in crowd} == {6} and heads.reads == 2

    asyncio.run(scenario())
