"""Live-feed messages: subscription filters, delta encoding, snapshots and gap replay."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

import asyncpg
import msgspec

from tableside.eventlog import EventRegistry
from tableside.eventlog.source import read_after
from tableside.match.folding import MatchView, Record
from tableside.match.projections.folder import Folder
from tableside.match.views import live_doc


class Delta(msgspec.Struct, kw_only=True):
    """One stored event of a match and its live board after it; `position` comes first."""

    position: int
    kind: str = "event"
    match_id: UUID
    version: int
    type: str
    recorded_at: datetime
    event: Any
    live: dict[str, Any]


_encoder = msgspec.json.Encoder()


@dataclass(frozen=True, slots=True)
class Filter:
    """What a socket subscribed to: one match, one table, or one competition."""

    kind: str  # match | table | competition
    value: str

    @property
    def channel(self) -> str:
        """The in-memory channel carrying exactly these deltas."""
        return f"{self.kind}:{self.value}"


def channels_of(view: MatchView) -> list[str]:
    """Every channel a delta of this match goes to."""
    names = [f"match:{view.match_id}"]
    if view.table is not None:
        names.append(f"table:{view.table}")
    if view.competition_id:
        names.append(f"competition:{view.competition_id}")
    return names


def routed(items: list[tuple[Record, MatchView]]) -> list[tuple[Record, MatchView, list[str]]]:
    """Each delta with every channel it belongs to (issue 10, point 6).

    A match's first event (MatchCreated) is stored before the MatchScheduled that names its
    table and competition, in the same append; those first deltas go to the channels the stream
    reaches later in the batch, so a table or competition subscriber sees the match from v1.
    """
    later: dict[object, list[str]] = {}
    out = []
    for rec, view in reversed(items):
        names = channels_of(view)
        if view.table is None and not view.competition_id:
            names += [n for n in later.get(rec.stream_id, ()) if n not in names]
        later[rec.stream_id] = names
        out.append((rec, view, names))
    out.reverse()
    return out


def encode_delta(rec: Record, view: MatchView) -> bytes:
    """The JSON text of one delta."""
    return _encoder.encode(
        Delta(
            position=rec.position,
            match_id=rec.stream_id,
            version=rec.version,
            type=rec.type,
            recorded_at=rec.recorded_at,
            event=rec.event,
            live=live_doc(view),
        )
    )


def encode(message: dict[str, Any]) -> bytes:
    """JSON text of a control message (snapshot, caught_up, error)."""
    return _encoder.encode(message)


async def gap(
    pool: asyncpg.Pool, registry: EventRegistry, flt: Filter, after: int
) -> AsyncIterator[list[tuple[int, bytes]]]:
    """Every delta of the subscription after `after`, from the database, in chunks in order.

    A connection is held only while a chunk is read, never while a slow client is sent to.
    """
    folder = Folder(registry, size=64)
    stream = UUID(flt.value) if flt.kind == "match" else None
    while True:
        async with pool.acquire() as conn:
            records = await read_after(conn, registry, after, 500, stream)
            views = [(rec, view) for rec in records if (view := await folder.advance(conn, rec))]
            chunk = [
                (rec.position, encode_delta(rec, view))
                for rec, view, names in routed(views)
                if flt.channel in names
            ]
        if not records:
            return
        yield chunk
        after = records[-1].position
