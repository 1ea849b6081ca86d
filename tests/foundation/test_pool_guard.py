"""The pool guard (issue 28) fires on a nested acquisition: a task that holds a pooled
connection and asks for another fails loudly (raised, logged, written to the guard's file),
while two tasks holding one connection each is fine. Every server the suite starts runs with
it on (tests/conftest.py `pool_guard`), and the session fails on anything it wrote."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest
from tableside.db import roles
from tableside.db.pool import NestedAcquire, PoolBusy, open_pool
from tableside.db.url import with_user
from tableside.settings import Settings


async def test_a_second_acquisition_by_a_holding_task_fails_loudly(
    module_database_url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    report = tmp_path / "nested.txt"
    settings = Settings(
        database_url=with_user(module_database_url, roles.APP_ROLE),
        pool_guard=True,
        pool_guard_file=report,
    )
    pool = await open_pool(settings, max_size=2)
    try:
        async with pool.acquire() as conn:
            assert await conn.fetchval("SELECT 1") == 1
            with caplog.at_level(logging.ERROR), pytest.raises(NestedAcquire):
                await pool.fetchval("SELECT 2")  # pool.fetch… acquire too
        assert "holds a pooled connection and asks for another" in caplog.text
        assert "test_pool_guard.py" in report.read_text()  # where it happened
        assert pool.holding == {}  # nothing left counted as held

        async def one() -> int:
            async with pool.acquire() as conn:
                await asyncio.sleep(0.05)
                return await conn.fetchval("SELECT 1")

        assert await asyncio.gather(one(), one()) == [1, 1]  # one each: no finding
    finally:
        await pool.close()


async def test_a_wait_for_a_connection_is_bounded(module_database_url: str) -> None:
    settings = Settings(
        database_url=with_user(module_database_url, roles.APP_ROLE), db_acquire_seconds=0.2
    )
    pool = await open_pool(settings, max_size=1)
    try:
        async with pool.acquire():
            other = asyncio.create_task(pool.fetchval("SELECT 1"))
            with pytest.raises(PoolBusy, match=r"within 0\.2 s"):
                await other
        assert await pool.fetchval("SELECT 1") == 1
        assert pool.waiting == {}
    finally:
        await pool.close()
