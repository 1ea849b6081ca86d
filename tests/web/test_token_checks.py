"""The command routes' token checks batched (issue 32 point 4): checks that arrive while one is
in flight go in one round trip, each answered as alone — its principal, its own bucket's
wait (the shared `rate_take` row, so the limit still holds across nodes), 401 for a token
that is unknown, revoked or expired; a lone check goes at once."""

from __future__ import annotations

import asyncio
import uuid

import asyncpg
import pytest
from litestar.exceptions import NotAuthorizedException
from tableside.web.auth import TokenChecks, new_token, resolve_taking, token_hash
from tableside.web.ratelimit import RateLimiter

BOUND = 60.0


async def _tokens(conn: asyncpg.Connection) -> dict[str, str]:
    """Judge tokens of tables 1-4, one revoked and one expired judge token, a head judge's
    session: name -> token."""
    made = {f"table{n}": new_token("tj_") for n in range(1, 5)}
    made |= {"revoked": new_token("tj_"), "expired": new_token("tj_"), "head": new_token("ts_")}
    for name, token in made.items():
        if name == "head":
            continue
        table = int(name[-1]) if name.startswith("table") else 9
        await conn.execute(
            "INSERT INTO judge_tokens (token_id, token_hash, table_no, issued_by, expires_at)"
            " VALUES ($1, $2, $3, 'test', now() + $4::text::interval)",
            uuid.uuid4(),
            token_hash(token),
            table,
            "-1 hour" if name == "expired" else "1 hour",
        )
    await conn.execute(
        "UPDATE judge_tokens SET revoked_at = now() WHERE token_hash = $1",
        token_hash(made["revoked"]),
    )
    await conn.execute(
        "INSERT INTO staff_accounts (username, role, password_hash)"
        " VALUES ('hj', 'head_judge', 'x')"
    )
    await conn.execute(
        "INSERT INTO staff_sessions (token_hash, username, expires_at)"
        " VALUES ($1, 'hj', now() + interval '1 hour')",
        token_hash(made["head"]),
    )
    return made


def test_checks_arriving_together_go_in_one_round_trip_each_answered_alone(database_url):
    async def run() -> None:
        pool = await asyncpg.create_pool(database_url, min_size=1, max_size=2)
        try:
            async with pool.acquire() as conn:
                made = await _tokens(conn)
            limiter = RateLimiter("command", 1.0, 2)  # a burst of 2 per token
            checks = TokenChecks(pool, limiter, BOUND)
            lock = await pool.acquire()  # holds rate_buckets: the lone check waits in flight
            tx = lock.transaction()
            await tx.start()
            await lock.execute("LOCK TABLE rate_buckets IN EXCLUSIVE MODE")
            first = asyncio.ensure_future(checks.check(made["table1"]))
            async with asyncio.timeout(BOUND):
                while not checks._batch.flying():  # the lone check goes at once
                    await asyncio.sleep(0)
            names = ["table1", "table2", "table2", "table2", "head", "revoked", "expired"]
            rest = [asyncio.ensure_future(checks.check(made[n])) for n in names]
            async with asyncio.timeout(BOUND):
                while checks._batch.waiting() < len(rest):
                    await asyncio.sleep(0.01)
            await tx.rollback()
            await pool.release(lock)
            answers = await asyncio.gather(first, *rest, return_exceptions=True)
        finally:
            await _closed(pool)
        lone, t1, t2a, t2b, t2c, head, revoked, expired = answers
        assert lone[0].table == 1 and lone[1] == 0.0
        assert t1[0].table == 1 and t1[1] == 0.0  # table 1's second token of its burst
        assert [t[1] == 0.0 for t in (t2a, t2b, t2c)] == [True, True, False]  # the 3rd waits
        assert 0 < t2c[1] <= 1.0
        assert head[0].role == "head_judge" and head[0].name == "hj"
        assert isinstance(revoked, NotAuthorizedException)
        assert isinstance(expired, NotAuthorizedException)

    asyncio.run(run())


def test_a_lone_check_answers_as_the_one_token_query(database_url):
    async def run() -> None:
        pool = await asyncpg.create_pool(database_url, min_size=1, max_size=2)
        try:
            async with pool.acquire() as conn:
                made = await _tokens(conn)
            limiter = RateLimiter("command", 1.0, 5)
            checks = TokenChecks(pool, limiter, BOUND)
            alone = await checks.check(made["table3"])
            direct = await resolve_taking(pool, made["table3"], limiter)
            assert alone[0] == direct[0] and alone[1] == direct[1] == 0.0
            with pytest.raises(NotAuthorizedException):
                await checks.check("tj_unknown")
            with pytest.raises(NotAuthorizedException):
                await checks.check("xx_other")
            assert await checks.check(None) == (None, 0.0)
        finally:
            await _closed(pool)

    asyncio.run(run())


async def _closed(pool: asyncpg.Pool) -> None:
    """Close the pool, bounded: a test that failed while holding a connection (the lock
    above) would leave `close()` waiting for its release for ever; then terminate it."""
    try:
        await asyncio.wait_for(pool.close(), BOUND)
    except TimeoutError:
        pool.terminate()
