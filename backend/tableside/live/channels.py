"""What the live kernel asks of a slice: turn stored events into feed messages for channels,
and the whole documents a channel starts with. Slices register these with the composition
root (`server/`); the kernel names no slice.

- A **renderer** (one per follower: the hub has one, folding in the process's fold caches
  the read models share; each replay makes a fresh one with its own) gets every batch
  of stored events in position order and returns a `Message` for each event it renders,
  with every channel the message belongs to. It folds
  every event it knows, but encodes only messages `wanted` by their channels (the hub wants
  every message: its ring, live/ring.py, holds every channel's recent deltas).
- A **watcher** is handed every batch the hub follows (and the position it followed from),
  to keep something of the process current without rendering (e.g. which match each
  table plays now).
- An **opener** gives a channel kind's whole documents (JSON text) to a socket after its
  snapshot or replay (e.g. a competition's standings); documents go at the `DOCUMENT`
  position, which the pump forwards without ordering them among the deltas.
- A **snapshotter** may claim a channel's snapshot (e.g. a match of another discipline than
  the one whose read model holds the channel's documents): given the channel's kind and
  value inside the kernel's REPEATABLE READ transaction, it returns (position, whole
  snapshot message) or None, and the kernel replays the deltas after that position.
- A **projection** is a channel kind's snapshot kept in a slice's read model: (read model,
  a SELECT of the live documents as text for the channel's key $1), read at the model's
  tracking position when no snapshotter claims the channel.
- A **hall** is a name a slice may register for `/live?hall=<name>` besides `all` (every match
  on a table): a slice's whole-venue channel `hall:<name>`, snapshotted by its snapshotter.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import asyncpg

from tableside.eventlog import EventRegistry
from tableside.eventlog.source import Record

DOCUMENT = -1  # the audience position of a whole document (see live._pump)


@dataclass(frozen=True, slots=True)
class Message:
    """One feed message (JSON text) at a global position, for these channels."""

    position: int
    text: bytes
    channels: tuple[str, ...]
    # what it says changes what its channels' snapshots say (a match's spectators barred, KSI
    # 1.6.4): their cached snapshots are dropped, the next socket's is read afresh
    reshapes: bool = False


Wanted = Callable[[Sequence[str]], bool]


def everyone(_: Sequence[str]) -> bool:
    """Every message is wanted (a replay's renderer)."""
    return True


class Renderer(Protocol):
    """Renders the stored events it knows; others are not its business."""

    async def render(
        self, conn: asyncpg.Connection, records: list[Record], wanted: Wanted = everyone
    ) -> list[Message]:
        """Messages for the records it renders and `wanted` takes, in position order."""
        ...


RendererFactory = Callable[..., Renderer]  # (registry, **what the process shares) -> Renderer
Opener = Callable[[asyncpg.Pool, str], Awaitable[bytes | None]]
Watcher = Callable[[int, list[Record]], None]
Snapshotter = Callable[
    [asyncpg.Connection, EventRegistry, str, str], Awaitable[tuple[int, bytes] | None]
]


@dataclass
class LiveChannels:
    """The renderers, openers, watchers, snapshotters, projections and halls the slices
    registered."""

    renderers: list[RendererFactory] = field(default_factory=list)
    openers: dict[str, Opener] = field(default_factory=dict)
    watchers: list[Watcher] = field(default_factory=list)
    snapshotters: list[Snapshotter] = field(default_factory=list)
    projected: dict[str, tuple[str, str]] = field(default_factory=dict)
    halls: frozenset[str] = frozenset({"all"})

    def followers(self, registry: EventRegistry, **shared: object) -> list[Renderer]:
        """A fresh renderer of every slice (each with its own cache, or with what the process
        shares with it: the hub's renderers fold in the process's fold caches, `folders`,
        which the read models share)."""
        return [make(registry, **shared) for make in self.renderers]


async def render_all(
    renderers: list[Renderer],
    conn: asyncpg.Connection,
    records: list[Record],
    wanted: Wanted = everyone,
) -> list[Message]:
    """Every renderer's messages for a batch (those `wanted`), merged in position order."""
    if len(renderers) == 1:
        return await renderers[0].render(conn, records, wanted)
    out = [m for r in renderers for m in await r.render(conn, records, wanted)]
    out.sort(key=lambda m: m.position)  # stable: one event's messages keep their order
    return out
