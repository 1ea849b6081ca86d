"""The match slice's messages on the live feed: one delta per stored match event (the event
and the live board after it) on its `match:`, `table:`, `competition:` and `hall:` channels."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

import asyncpg
import msgspec

from tableside.eventlog import EventRegistry
from tableside.eventlog.folder import Folders
from tableside.live.channels import Message, Wanted, everyone
from tableside.match.events import MatchScheduled
from tableside.plugins.korona.folding import MatchView, Record
from tableside.plugins.korona.projections.folder import MATCH_FOLD
from tableside.plugins.korona.views import live_doc


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
HALL = "hall:all"  # every match on a table of the hall (the console's and venue screen's)


def channels_of(view: MatchView, event: object = None) -> list[str]:
    """Every channel a delta of this match goes to (a move's: the table it left too, whose
    device and cards then show it gone: decision 0207)."""
    names = [f"match:{view.match_id}"]
    if view.table is not None:
        names += (f"table:{view.table}", HALL)
    if isinstance(event, MatchScheduled) and event.moved_from:
        names.append(f"table:{event.moved_from}")
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
        names = channels_of(view, rec.event)
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


class MatchRenderer:
    """Folds match streams (its own cache, or the process's one among `folders`) and renders
    each match event as a delta."""

    def __init__(self, registry: EventRegistry, folders: Folders | None = None, **_: object):
        self.folder = (folders or Folders(registry)).of(MATCH_FOLD)  # the hub's: the read models'

    async def render(
        self, conn: asyncpg.Connection, records: list[Record], wanted: Wanted = everyone
    ) -> list[Message]:
        views = []
        for rec in records:
            if (view := await self.folder.advance(conn, rec)) is not None:
                views.append((rec, view))
        return [
            Message(rec.position, encode_delta(rec, view), tuple(names))
            for rec, view, names in routed(views)
            if wanted(names)
        ]
