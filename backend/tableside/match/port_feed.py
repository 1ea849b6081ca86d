"""The live feed of a discipline without a feed of its own (`Discipline.feed` None): on
`match:<id>`, a snapshot (the view at the stream's version, at the store's head position) and
then one delta per stored event of the discipline: the event, its `rule` and the view after
it. The renderer keeps its own fold per stream (refolded from the store on a miss) and folds
only the events of the disciplines it was handed; the house's own disciplines render theirs.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any
from uuid import UUID

import asyncpg
import msgspec

from tableside.eventlog import EventRegistry
from tableside.eventlog.source import Record, head, read_stream
from tableside.live.channels import Message, RendererFactory, Snapshotter, Wanted, everyone
from tableside.match.discipline import Discipline, Disciplines

_encoder = msgspec.json.Encoder()


def _fed(disciplines: Disciplines) -> dict[type, Discipline]:
    return {t: d for d in disciplines if d.feed is None for t in d.event_types}


def _fold(discipline: Discipline, records: list[Record]) -> Any:
    folded = None
    for rec in records:
        folded = discipline.fold(folded, rec)
    return folded


class PortRenderer:
    """Folds the streams of the disciplines it feeds; every other event is not its business."""

    def __init__(self, registry: EventRegistry, fed: dict[type, Discipline], size: int = 256):
        self.registry, self.fed, self._size = registry, fed, size
        self._states: OrderedDict[UUID, tuple[int, Any]] = OrderedDict()

    async def render(
        self, conn: asyncpg.Connection, records: list[Record], wanted: Wanted = everyone
    ) -> list[Message]:
        out = []
        for rec in records:
            discipline = self.fed.get(type(rec.event))
            if discipline is None:
                continue
            state = await self._advance(conn, discipline, rec)
            if wanted(names := (f"match:{rec.stream_id}",)):
                out.append(Message(rec.position, _delta(discipline, rec, state), names))
        return out

    async def _advance(self, conn: asyncpg.Connection, discipline: Discipline, rec: Record):
        version, state = self._states.get(rec.stream_id, (0, None))
        if state is None or version != rec.version - 1:  # not cached, or events went by unseen
            earlier = await read_stream(conn, self.registry, rec.stream_id, rec.version - 1)
            state = _fold(discipline, earlier)
        state = discipline.fold(state, rec)
        self._states[rec.stream_id] = (rec.version, state)
        self._states.move_to_end(rec.stream_id)
        if len(self._states) > self._size:
            self._states.popitem(last=False)
        return state


def _delta(discipline: Discipline, rec: Record, state: Any) -> bytes:
    return _encoder.encode(
        {
            "position": rec.position,
            "kind": "event",
            "discipline": discipline.name,
            "match_id": str(rec.stream_id),
            "version": rec.version,
            "type": rec.type,
            "rule": getattr(rec.event, "rule", ""),
            "event": rec.event,
            "view": discipline.view(state),
        }
    )


def port_feed(disciplines: Disciplines) -> RendererFactory:
    """A renderer factory for the disciplines without a feed of their own."""
    fed = _fed(disciplines)
    return lambda registry, **_: PortRenderer(registry, fed)  # shares no fold cache


def port_snapshot(disciplines: Disciplines) -> Snapshotter:
    """The snapshotter of `match:<id>` for a match of a discipline the port feed renders."""
    fed = _fed(disciplines)

    async def snapshot(
        conn: asyncpg.Connection, registry: EventRegistry, kind: str, value: str
    ) -> tuple[int, bytes] | None:
        if kind != "match" or not fed:
            return None
        stream = UUID(value)
        first = await read_stream(conn, registry, stream, 1)
        discipline = fed.get(type(first[0].event)) if first else None
        if discipline is None:
            return None
        position = await head(conn)
        records = await read_stream(conn, registry, stream, 2**62)
        message = {
            "kind": "snapshot",
            "position": position,
            "filter": {kind: value},
            "discipline": discipline.name,
            "matches": [],
            "match": {
                "match_id": value,
                "version": records[-1].version,
                "view": discipline.view(_fold(discipline, records)),
            },
        }
        return position, _encoder.encode(message)

    return snapshot
