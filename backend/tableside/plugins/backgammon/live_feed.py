"""The backgammon slice on the live feed: `match:<id>` of a backgammon match, and
`hall:backgammon`, every backgammon match (the spectators' front page).

A match's socket gets a snapshot (the board document at the stream's version, at the store's
head position, and the last few events in the form `bg-words.js` words them), then one delta
per stored backgammon event: the event (with its KSI `rule`), its citation and the board after
it. A match created on a hall table is also announced on `table:<n>`, where that table's
judge device listens. The hall's socket gets the list of matches being played (read model
`backgammon`, at its tracking position), then the same deltas of every backgammon match.
The renderer keeps its own fold per stream (refolded from the store on a miss); each delta is
encoded once for every subscriber (the hub fans the same text out).
"""

from __future__ import annotations

from collections import OrderedDict
from datetime import datetime
from typing import Any
from uuid import UUID

import asyncpg
import msgspec

from tableside.disciplines.backgammon import EVENT_TYPES, evolve, initial_state
from tableside.disciplines.backgammon.events import (
    AppealDecided,
    MatchCreated,
    PlayerExpelled,
    RulingOverturned,
)
from tableside.disciplines.backgammon.record import DISPUTE as _DISPUTE
from tableside.disciplines.backgammon.state import MatchState
from tableside.disciplines.backgammon.view import board_doc
from tableside.eventlog import EventRegistry
from tableside.eventlog.source import Record, head, read_stream
from tableside.live.channels import Message, Wanted, everyone
from tableside.plugins.backgammon.http.reads import playing
from tableside.plugins.backgammon.projections.matches import NAME

DISCIPLINE = "backgammon"
HALL = "backgammon"  # /live?hall=backgammon
RECENT = 30  # the events a snapshot carries for the log (the newest last)
_TYPES = frozenset(EVENT_TYPES)
DISPUTE = (*_DISPUTE, AppealDecided, RulingOverturned, PlayerExpelled)
_encoder = msgspec.json.Encoder()
_TRACKED = "SELECT position FROM projection_tracking WHERE name = $1"


def _recent(records: list) -> list:
    """The last RECENT backgammon events, and before them every entry of the match's disputes
    (the call, ruling, testimony, appeal, jury, monitor, expulsion: KSI 5, 1.3.3), so a
    dispute of game 2 is still there at the match's end."""
    bg = [r for r in records if type(r.event) in _TYPES]
    cut = max(0, len(bg) - RECENT)
    return [r for r in bg[:cut] if isinstance(r.event, DISPUTE)] + bg[cut:]


class Entry(msgspec.Struct, kw_only=True):
    """One stored backgammon event as the faces word it (`bgEventText(event, names)`)."""

    position: int
    version: int
    type: str
    recorded_at: datetime
    rule: str
    event: Any


class BgDelta(Entry, kw_only=True):
    """One stored backgammon event and the board after it; `position` comes first."""

    kind: str = "event"
    discipline: str = DISCIPLINE
    match_id: UUID
    board: dict[str, Any]


def _entry(rec: Record) -> Entry:
    return Entry(
        position=rec.position,
        version=rec.version,
        type=rec.type,
        recorded_at=rec.recorded_at,
        rule=rec.event.rule,
        event=rec.event,
    )


def fold_stream(records: list[Record]) -> MatchState:
    """The match after these stored events of its stream (others leave it as it is)."""
    state = initial_state()
    for rec in records:
        if type(rec.event) in _TYPES:
            state = evolve(state, rec.event)
    return state


class BgRenderer:
    """Folds backgammon streams (its own cache) and renders each backgammon event as a delta
    on `match:<id>`; every other event is not its business."""

    def __init__(self, registry: EventRegistry, size: int = 256, **_: object) -> None:
        self.registry = registry
        self._states: OrderedDict[UUID, tuple[int, MatchState]] = OrderedDict()
        self._size = size

    async def render(
        self, conn: asyncpg.Connection, records: list[Record], wanted: Wanted = everyone
    ) -> list[Message]:
        out = []
        for rec in records:
            if type(rec.event) in _TYPES:
                state = await self._advance(conn, rec)
                if wanted(names := _channels(rec, state)):
                    out.append(Message(rec.position, encode_delta(rec, state), names))
        return out

    async def _advance(self, conn: asyncpg.Connection, rec: Record) -> MatchState:
        version, state = self._states.get(rec.stream_id, (0, initial_state()))
        if version != rec.version - 1:  # not cached, or events of the stream went by unseen
            state = fold_stream(
                await read_stream(conn, self.registry, rec.stream_id, rec.version - 1)
            )
        state = evolve(state, rec.event)
        self._states[rec.stream_id] = (rec.version, state)
        self._states.move_to_end(rec.stream_id)
        if len(self._states) > self._size:
            self._states.popitem(last=False)
        return state


def _channels(rec: Record, state: MatchState) -> tuple[str, ...]:
    """The match's and the hall's; a match created on a table is news on the table's channel
    too (its judge device moves to it)."""
    channels = (f"match:{rec.stream_id}", f"hall:{HALL}")
    if isinstance(rec.event, MatchCreated) and state.table:
        return (*channels, f"table:{state.table}")
    return channels


def encode_delta(rec: Record, state: MatchState) -> bytes:
    """The JSON text of one delta."""
    entry = _entry(rec)
    return _encoder.encode(
        BgDelta(**msgspec.structs.asdict(entry), match_id=rec.stream_id, board=board_doc(state))
    )


async def bg_snapshot(
    conn: asyncpg.Connection, registry: EventRegistry, kind: str, value: str
) -> tuple[int, bytes] | None:
    """A backgammon match's snapshot at the store's head, or the backgammon hall's (None:
    neither). Called by the kernel inside its REPEATABLE READ transaction, so the position and
    what it covers are read at one instant: the deltas after it follow with no gap and no
    duplicate."""
    if kind == "hall" and value == HALL:
        return await _hall_snapshot(conn)
    if kind != "match":
        return None
    stream = UUID(value)
    first = await read_stream(conn, registry, stream, 1)
    if not first or not isinstance(first[0].event, MatchCreated):
        return None
    position = await head(conn)
    records = await read_stream(conn, registry, stream, 2**62)
    state = fold_stream(records)
    recent = [_entry(r) for r in _recent(records)]
    message = {
        "kind": "snapshot",
        "position": position,
        "filter": {kind: value},
        "discipline": DISCIPLINE,
        "matches": [],
        "backgammon": {
            "match_id": value,
            "version": records[-1].version,
            "board": board_doc(state),
            "entries": recent,
        },
    }
    return position, _encoder.encode(message)


async def _hall_snapshot(conn: asyncpg.Connection) -> tuple[int, bytes]:
    """The matches being played, from the read model at its tracking position."""
    position = await conn.fetchval(_TRACKED, NAME)
    message = {
        "kind": "snapshot",
        "position": position,
        "filter": {"hall": HALL},
        "discipline": DISCIPLINE,
        "matches": [],
        "backgammon_matches": await playing(conn),
    }
    return position, _encoder.encode(message)
