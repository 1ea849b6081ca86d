"""Group commit (issue 32 point 4): the appends that reach the store together go to the
database in one transaction, and a lone append is never delayed to wait for company.

One layer, on the event loop (decision 0217: the store's appends all run on its home loop, a
worker thread's sync call included): the first caller finds nothing in flight and flushes its
own item at once; callers arriving meanwhile queue and fly together after it. A waiter holds
no connection (only the flight's flush holds one), and every wait is bounded. `flush(items)`
returns one outcome per item, in order; an exception it raises is every item's outcome.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Generic, TypeVar

P = TypeVar("P")
R = TypeVar("R")


class GroupCommitTimeout(TimeoutError):
    """An append waited longer than its bound for its turn or for its batch."""


class AsyncGroupCommit(Generic[P, R]):
    """Leader/follower batching for callers on the event loop: `await submit(item)`. The
    first caller finds nothing in flight and flushes its item itself, at once (no task, no
    future: a task's start and a future's wake are each one more turn of the loop, and a
    judge's reply waits for each turn behind the live feed's fan-out); callers arriving
    meanwhile queue, and when it lands it starts a flight for them. A flight awaits
    `flush(items)` (the store's: one asyncpg round trip, on the loop; the token checks': one
    query) and, while the queue is not empty when it lands, flies again with all that queued
    meanwhile. A caller's wait is bounded; the flight goes on if a caller is cancelled (its
    outcome is then nobody's); one that gave up while still queued is left out of its flight
    (nothing of it is written)."""

    def __init__(
        self,
        flush: Callable[[Sequence[P]], Awaitable[Sequence[R | BaseException]]],
        *,
        wait_seconds: float,
        max_batch: int = 128,
    ) -> None:
        self._flush, self._wait, self._max = flush, wait_seconds, max_batch
        self._queue: list[tuple[P, asyncio.Future[R]]] = []
        self._flight: asyncio.Task[None] | None = None
        self._alone = False  # a lone caller is flushing its own item

    def waiting(self) -> int:
        """How many items are queued for the next flight."""
        return len(self._queue)

    def flying(self) -> bool:
        """Whether a flush is under way (a lone caller's or a flight's)."""
        return self._alone or self._flight is not None

    async def submit(self, item: P) -> R:
        """Flush `item` (at once when nothing is in flight, else with the next batch)."""
        if not self.flying():
            return await self._flush_alone(item)
        # A flush is under way: this item goes in the flight after it (the one flying, or the
        # one the lone flush starts when it lands).
        future: asyncio.Future[R] = asyncio.get_running_loop().create_future()
        self._queue.append((item, future))
        try:
            async with asyncio.timeout(2 * self._wait):
                # Awaited as it is, not shielded: a caller cancelled (or out of time) cancels
                # its own future only, which the flight then passes over; a shield would cost
                # every caller one more turn of the loop (issue 32: a judge's reply waits for
                # each turn behind the live feed's fan-out).
                return await future
        except TimeoutError:
            raise self._late() from None

    def _late(self) -> GroupCommitTimeout:
        return GroupCommitTimeout(f"the batch did not end within {2 * self._wait:g} s")

    async def _flush_alone(self, item: P) -> R:
        """The lone caller's flush, in its own task; those queued meanwhile fly after it."""
        self._alone = True
        try:
            async with asyncio.timeout(2 * self._wait):
                outcomes = list(await self._flush([item]))
        except TimeoutError:
            raise self._late() from None
        finally:
            self._alone = False
            if self._queue:
                self._flight = asyncio.get_running_loop().create_task(self._fly())
        if len(outcomes) != 1:
            raise RuntimeError("group commit: the flush answered another count")
        if isinstance(outcomes[0], BaseException):
            raise outcomes[0]
        return outcomes[0]

    async def _fly(self) -> None:
        try:
            while self._queue:
                batch, self._queue = self._queue[: self._max], self._queue[self._max :]
                batch = [(item, future) for item, future in batch if not future.done()]
                if not batch:  # every caller of it gave up while queued: nothing to write
                    continue
                try:
                    outcomes = list(await self._flush([item for item, _ in batch]))
                    if len(outcomes) != len(batch):
                        raise RuntimeError("group commit: the flush answered another count")
                except Exception as exc:
                    outcomes = [exc] * len(batch)
                for (_, future), outcome in zip(batch, outcomes, strict=True):
                    if future.done():
                        continue
                    if isinstance(outcome, BaseException):
                        future.set_exception(outcome)
                    else:
                        future.set_result(outcome)
        finally:
            self._flight = None
            for _, future in self._queue:  # only when the flight itself was cancelled
                if not future.done():
                    future.cancel()
            self._queue = []
