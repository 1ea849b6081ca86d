"""The hall's board documents of a venue's kept matches, for the federation's live pages
(issue 51, point 4; decision 0200): each kept event of a match stream folded with the
venue's own fold of its discipline (korona's `MATCH_FOLD`, backgammon's `BG_FOLD`: the
folds the hall's live feed renders with) and drawn as the hall draws it — korona's live
board (`plugins/korona/views.live_doc`), backgammon's board document
(`disciplines/backgammon/view.board_doc`). A remote page reuses the hall's board renderers on
exactly the documents a spectator in the hall is sent.

One `Boards` per venue feed: each stream's value after the last event folded; a stream first
met mid-way (the feed's ring starts at its head less RING_SIZE) is folded from its kept start
once. Streams that are no match (a competition's) are remembered as such and cost nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from uuid import UUID

import asyncpg

from tableside.disciplines.backgammon.view import board_doc
from tableside.eventlog.folder import StreamFold
from tableside.eventlog.source import Record
from tableside.federation.archive.kept import registry
from tableside.plugins.backgammon.folding import BG_FOLD
from tableside.plugins.house import house_disciplines
from tableside.plugins.korona.projections.folder import MATCH_FOLD
from tableside.plugins.korona.views import live_doc

_BEFORE = """
SELECT position, stream_id, version, type_name, payload, recorded_at FROM venue_events
WHERE venue_id = $1 AND stream_id = $2 AND position < $3 ORDER BY position
"""


@dataclass(frozen=True)
class Drawn:
    """How one discipline's matches are folded and drawn for the live pages."""

    fold: StreamFold
    doc: Callable[[Any], dict[str, Any]]


DRAWN = {
    "korona": Drawn(MATCH_FOLD, lambda view: {"discipline": "korona", "live": live_doc(view)}),
    "backgammon": Drawn(
        BG_FOLD, lambda folded: {"discipline": "backgammon", "board": board_doc(folded.state)}
    ),
}


def record_of(row: asyncpg.Record) -> Record:
    """A kept row decoded with the venue's own registry."""
    event = registry().decode(row["type_name"], bytes(row["payload"]))
    return Record(
        row["stream_id"],
        row["version"],
        row["position"],
        row["type_name"],
        event,
        row["recorded_at"],
    )


class Boards:
    """Each kept match stream of one venue folded up to the last event seen."""

    def __init__(self, venue_id: UUID) -> None:
        self.venue_id = venue_id
        self._values: dict[UUID, tuple[Drawn, Any] | None] = {}

    async def after(self, pool: asyncpg.Pool, row: asyncpg.Record) -> dict[str, Any] | None:
        """The stream's board after this kept row (None: the stream is no match)."""
        stream = row["stream_id"]
        if stream not in self._values:
            await self._begin(pool, row)
        held = self._values[stream]
        if held is None:
            return None
        drawn, value = held
        rec = record_of(row)
        if type(rec.event) in drawn.fold.types:
            value = drawn.fold.advance(value, rec)
            self._values[stream] = (drawn, value)
        return drawn.doc(value) if value is not None else None

    def current(self) -> dict[UUID, dict[str, Any]]:
        """Every match stream's board as last folded."""
        return {
            stream: held[0].doc(held[1])
            for stream, held in self._values.items()
            if held is not None and held[1] is not None
        }

    async def _begin(self, pool: asyncpg.Pool, row: asyncpg.Record) -> None:
        """A stream first met: its discipline from its first event, its kept events before
        this row folded."""
        rows = await pool.fetch(_BEFORE, self.venue_id, row["stream_id"], row["position"])
        earlier = [record_of(r) for r in rows]
        drawn = drawn_of(earlier[0] if earlier else record_of(row))
        self._values[row["stream_id"]] = drawn and (drawn, drawn.fold.whole(earlier))


def drawn_of(first: Record) -> Drawn | None:
    """How a stream starting with this event is drawn (None: it is no match)."""
    discipline = house_disciplines().of_event(first.event)
    return DRAWN.get(discipline.name) if discipline is not None else None


def board_of(records: list[Record]) -> dict[str, Any] | None:
    """A whole match stream's board (None: no match, or nothing folded yet)."""
    drawn = drawn_of(records[0]) if records else None
    value = drawn.fold.whole(records) if drawn else None
    return drawn.doc(value) if drawn and value is not None else None
