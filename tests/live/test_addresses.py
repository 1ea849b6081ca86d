"""The per-address count's leases (live/addresses.py, decision 0125) on a real
PostgreSQL: sockets that leave while others wait for the lease are no refusal, and two nodes
never admit more than the limit between them."""

from __future__ import annotations

import asyncio

import asyncpg
from support.harness import run_async
from tableside.live.addresses import SharedAddresses
from tableside.live.audience import Audience

CLIENT = "198.51.100.7"
BOUND = 10.0
_LOCK = "SELECT pg_advisory_xact_lock(hashtext('tableside.live:' || $1))"
_STATED = "SELECT coalesce(sum(open), 0) FROM live_clients WHERE client = $1"


async def _lease_waiters(addresses: SharedAddresses, count: int) -> None:
    """Until `count` admits are inside the address's settle (one holding it, the rest waiting)."""
    async with asyncio.timeout(BOUND):
        while addresses._locks.get(CLIENT, (None, 0))[1] < count:
            await asyncio.sleep(0.01)


def test_sockets_leaving_while_one_waits_for_the_lease_do_not_refuse_it(database_url):
    """A socket waiting for the lease behind another socket's trip is judged by
    what its own trip grants, not by whether the lease grew — sockets that left meanwhile
    shrink it (their lease is given back), and the one waiting fits. Before, it was closed
    with 4429 with its address far under the limit (20 sockets at once, a loaded machine)."""

    async def scenario() -> list[bool]:
        pool = await asyncpg.create_pool(database_url, min_size=2, max_size=3)
        held = await pool.acquire()
        try:
            addresses = SharedAddresses(Audience(per_client=200))  # spare: 12
            spare = addresses.spare
            assert all([await addresses.admit(pool, CLIENT) for _ in range(spare + 1)])
            assert addresses.leased[CLIENT] == spare + 1
            tx = held.transaction()
            await tx.start()  # the address's lock held: the next trip waits in PostgreSQL
            await held.execute(_LOCK, CLIENT)
            taking = asyncio.ensure_future(addresses.admit(pool, CLIENT))
            waiting = asyncio.ensure_future(addresses.admit(pool, CLIENT))
            await _lease_waiters(addresses, 2)
            for _ in range(spare):  # leave while both wait: the lease they saw shrinks
                await addresses.leave(pool, CLIENT)
            await tx.rollback()
            admitted = await asyncio.wait_for(asyncio.gather(taking, waiting), BOUND)
            assert addresses.audience.clients[CLIENT] == 3
            assert addresses.leased[CLIENT] >= 3
            return admitted
        finally:
            await pool.release(held)
            await pool.close()

    assert run_async(scenario()) == [True, True]


def test_two_nodes_admit_no_more_than_the_limit_between_them(database_url):
    """Decision 0125's bound, two nodes on one PostgreSQL: a crowd of one address arriving at
    both at once gets exactly `per_client` sockets between them while PostgreSQL answers,
    and the ones refused are refused by the other node's lease, not by their own."""

    async def scenario() -> tuple[int, int]:
        pool = await asyncpg.create_pool(database_url, min_size=2, max_size=4)
        try:
            nodes = [SharedAddresses(Audience(per_client=40)) for _ in range(2)]
            await asyncio.gather(*(node._restate(pool) for node in nodes))  # both alive
            crowd = [nodes[k % 2].admit(pool, CLIENT) for k in range(100)]
            admitted = sum(await asyncio.wait_for(asyncio.gather(*crowd), BOUND * 3))
            others = await pool.fetchval("SELECT coalesce(sum(open), 0) FROM live_clients")
            return admitted, others
        finally:
            await pool.close()

    admitted, leased = run_async(scenario())
    assert admitted == 40
    assert leased <= 40


def test_a_restatement_states_no_socket_still_waiting_for_its_lease(database_url):
    """Decision 0125's bound (never over the limit while PostgreSQL answers) holds while a
    restatement runs: a socket counted here but still waiting for its lease is not stated,
    or the node would hold a lease no lock granted, past the other nodes' leases."""

    async def scenario() -> tuple[int, int, bool]:
        pool = await asyncpg.create_pool(database_url, min_size=2, max_size=3)
        held = await pool.acquire()
        try:
            addresses = SharedAddresses(Audience(per_client=3))  # spare: 0
            tx = held.transaction()
            await tx.start()  # the address's lock held: the lease trip waits in PostgreSQL
            await held.execute(_LOCK, CLIENT)
            waiting = asyncio.ensure_future(addresses.admit(pool, CLIENT))
            await _lease_waiters(addresses, 1)
            await addresses._restate(pool)
            stated = await pool.fetchval(_STATED, CLIENT)
            leased = addresses.leased[CLIENT]
            await tx.rollback()
            admitted = await asyncio.wait_for(waiting, BOUND)
            return stated, leased, admitted
        finally:
            await pool.release(held)
            await pool.close()

    assert run_async(scenario()) == (0, 0, True)
