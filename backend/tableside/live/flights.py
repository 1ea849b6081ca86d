"""Values per live channel built once however many sockets ask at once (single flight).

A crowd connecting to one channel (the venue screen shows a QR code, the hall's wifi comes
back, a server restarts and every phone reconnects) costs one database read for its snapshot,
not one per socket: the first asker starts the build, every later one awaits the same flight
(each for a bounded time), and the value is kept, stamped with its position, for the sockets
after them until `stale` says it is too old to serve (live/snapshots in live.py, the
channel openers' documents).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

T = TypeVar("T")
KEPT = 1024  # channels whose value is kept (the oldest forgotten first)


class Flights(Generic[T]):
    """Each key's value, built once per flight; `stale(value)` asks for a new one."""

    def __init__(self, stale: Callable[[T], bool], kept: int = KEPT) -> None:
        self.stale, self.kept = stale, kept
        self.values: dict[str, T] = {}
        self.flights: dict[str, asyncio.Future[T]] = {}
        self.builds = 0  # flights started (the tests count them)
        self._turn: dict[str, int] = {}  # bumped by `put`: a flight landing after it is older

    def cached(self, key: str) -> T | None:
        """The kept value, if it is not stale."""
        value = self.values.get(key)
        return None if value is None or self.stale(value) else value

    async def get(self, key: str, build: Callable[[], Awaitable[T]], seconds: float) -> T:
        """The kept value, or the one the flight in the air (or a new one) brings; waits at
        most `seconds` (TimeoutError), and a failed build fails every asker of its flight."""
        if (value := self.cached(key)) is not None:
            return value
        flight = self.flights.get(key)
        if flight is None:
            flight = self._start(key, build)
        async with asyncio.timeout(seconds):
            return await asyncio.shield(flight)

    def put(self, key: str, value: T) -> None:
        """A value known without a build (a published document): kept, and a flight that
        started before lands without replacing it."""
        self._turn[key] = self._turn.get(key, 0) + 1
        self._keep(key, value)

    def forget(self, key: str) -> None:
        """The kept value no longer holds: the next asker builds anew, and a flight that
        started before lands without being kept."""
        self._turn[key] = self._turn.get(key, 0) + 1
        self.values.pop(key, None)

    def _start(self, key: str, build: Callable[[], Awaitable[T]]) -> asyncio.Future[T]:
        flight = asyncio.ensure_future(build())
        self.flights[key] = flight
        self.builds += 1
        turn = self._turn.get(key, 0)

        def landed(done: asyncio.Future[T]) -> None:
            if self.flights.get(key) is done:
                del self.flights[key]
            if done.cancelled() or done.exception() is not None:
                return
            if self._turn.get(key, 0) == turn:
                self._keep(key, done.result())

        flight.add_done_callback(landed)
        return flight

    def _keep(self, key: str, value: T) -> None:
        self.values.pop(key, None)  # re-inserted last: the dict's order is its age
        self.values[key] = value
        while len(self.values) > self.kept:
            oldest = next(iter(self.values))
            del self.values[oldest]
            self._turn.pop(oldest, None)


class ReadAfter(Generic[T]):
    """One value read after each asker came, one read in the air however many ask.

    A socket's `caught_up` promises everything stored before it came: the log's head it
    waits for must be read after it came, so an asker does not join a read already in the
    air (it may have read before the asker's own event was stored) but the next one, which
    every asker arriving meanwhile shares. A crowd costs one read at a time, never one each."""

    def __init__(self) -> None:
        self.flying: asyncio.Future[T] | None = None
        self.queued: asyncio.Future[T] | None = None
        self.reads = 0  # reads made (the tests count them)

    async def get(self, read: Callable[[], Awaitable[T]], seconds: float) -> T:
        """A value read after this call began; waits at most `seconds` (TimeoutError)."""
        if self.queued is None:
            self.queued = asyncio.ensure_future(self._next(self.flying, read))
            self.queued.add_done_callback(_retrieved)
        async with asyncio.timeout(seconds):
            return await asyncio.shield(self.queued)

    async def _next(self, before: asyncio.Future[T] | None, read: Callable[[], Awaitable[T]]) -> T:
        if before is not None:
            await asyncio.wait([before])  # its outcome is its own askers'
        self.flying, self.queued = self.queued, None
        self.reads += 1
        return await read()


def _retrieved(done: asyncio.Future) -> None:
    """A read whose askers all gave up is not an unretrieved error."""
    if not done.cancelled():
        done.exception()
