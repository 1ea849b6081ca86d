"""The event loop the store's asyncpg pool lives on, and how a synchronous caller reaches it.

In the server that is the server's own loop: a service in a worker thread calls the store's
sync API and waits (bounded) for the coroutine on the loop. A CLI tool or a test with no loop
of its own gets one in a daemon thread (`Home.own`). A sync call from the home loop itself
would block the loop it waits for: it is refused, loudly (await the `_async` method).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


class StoreCallTimeout(TimeoutError):
    """A sync call on the store did not end within its bound."""


class Home:
    """A loop, and (`own`) the thread that runs it."""

    def __init__(self, loop: asyncio.AbstractEventLoop, thread: threading.Thread | None = None):
        self.loop, self.thread = loop, thread

    @classmethod
    def here(cls) -> Home:
        """The running loop (the server's)."""
        return cls(asyncio.get_running_loop())

    @classmethod
    def own(cls) -> Home:
        """A loop of its own in a daemon thread (the CLI, a sync test)."""
        loop = asyncio.new_event_loop()
        thread = threading.Thread(target=loop.run_forever, name="event-store", daemon=True)
        thread.start()
        return cls(loop, thread)

    def call(self, work: Callable[..., Coroutine[Any, Any, T]], *args: Any, timeout: float) -> T:
        """`await work(*args)` on the home loop, from another thread; at most `timeout` s."""
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is self.loop:
            raise RuntimeError("a sync store call on the store's own loop: await its _async form")
        future = asyncio.run_coroutine_threadsafe(work(*args), self.loop)
        try:
            return future.result(timeout)
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise StoreCallTimeout(f"the store did not answer within {timeout:g} s") from None

    async def visit(self, work: Callable[..., Coroutine[Any, Any, T]], *args: Any) -> T:
        """`await work(*args)` on the home loop from a coroutine on any loop: at once on the
        home loop itself (the server's path, no hop), else handed over to it."""
        if asyncio.get_running_loop() is self.loop:
            return await work(*args)
        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(work(*args), self.loop))

    def close(self, timeout: float = 10.0) -> None:
        """Stop the loop this home owns (none when it is the server's)."""
        if self.thread is None:
            return
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout)
        if not self.thread.is_alive():
            self.loop.close()
