"""The tail loop outlives a consumer's bug: an unexpected exception is logged with its
traceback and the step runs again (within the retry delay), instead of the loop's task ending
silently and every read model behind it standing still."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from tableside.eventlog.runner import keep_caught_up


def test_an_unexpected_error_is_logged_and_the_step_runs_again(caplog):
    calls = 0

    async def step() -> None:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise ValueError("a consumer's bug")

    async def scenario() -> None:
        wake = asyncio.Event()
        task = asyncio.create_task(keep_caught_up(step, wake, "tail", retry_seconds=0.01))
        for _ in range(200):
            if calls >= 2:
                break
            await asyncio.sleep(0.01)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    with caplog.at_level(logging.ERROR, logger="tableside.eventlog.runner"):
        asyncio.run(scenario())
    assert calls >= 2
    assert any("tail failed" in r.message and r.exc_info for r in caplog.records)
