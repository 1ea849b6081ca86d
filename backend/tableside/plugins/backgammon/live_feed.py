"""The backgammon slice on the live feed: `match:<id>` of a backgammon match, and
`hall:backgammon`, every backgammon match (the spectators' front page).

A match's socket gets a snapshot (the board document at the stream's version, at the store's
head position, and the last few events in the form `bg-words.js` words them), then one delta
per stored backgammon event: the event (with its KSI `rule`), its citation and the board after
it. A match created on a hall table is also announced on `table:<n>`, where that table's
judge device listens. The hall's socket gets the list of matches being played (read model
`backgammon`, at its tracking position), then the same deltas of every backgammon match.
The renderer folds in the process's one fold cache of backgammon streams (`BG_FOLD`, which the
read model shares: each event folded once per process; a replay's renderer has its own); each
delta is encoded once for every subscriber (the hub fans the same text out).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

import asyncpg
import msgspec

from tableside.disciplines.backgammon import EVENT_TYPES
from tableside.disciplines.backgammon.events import (
    AppealDecided,
    MatchCreated,
    PlayerExpelled,
    RulingOverturned,
    SpectatorsAdmitted,
    SpectatorsBarred,
)
from tableside.disciplines.backgammon.record import DISPUTE as _DISPUTE
from tableside.disciplines.backgammon.state import MatchState
from tableside.disciplines.backgammon.view import board_doc
from tableside.eventlog import EventRegistry
from tableside.eventlog.folder import Folders
from tableside.eventlog.source import Record, head, read_stream
from tableside.live.channels import Message, Wanted, everyone
from tableside.plugins.backgammon.folding import BG_FOLD
from tableside.plugins.backgammon.http.reads import COMPETITION_OF, playing
from tableside.plugins.backgammon.projections.matches import NAME

DISCIPLINE = "backgammon"
HALL = "backgammon"  # /live?hall=backgammon
RECENT = 30  # the events a snapshot carries for the log (the newest last)
_TYPES = frozenset(EVENT_TYPES)
DISPUTE = (*_DISPUTE, AppealDecided, RulingOverturned, PlayerExpelled)
_encoder = msgspec.json.Encoder()
BARRED_CODE = "bg_spectators_barred"  # pwa/i18n/codes.*.json
BARRED_RULE = "KSI 1.6.4"
BARS = (SpectatorsBarred, SpectatorsAdmitted)
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


class BgBarred(msgspec.Struct, kw_only=True):
    """What the public feed says of an event of a match whose spectators are barred at a
    player's request (KSI 1.6.4): that it happened, nothing of what; the staff's and the
    table's device read the match over HTTP with their token (`access.watchable`)."""

    position: int
    kind: str = "event"
    discipline: str = DISCIPLINE
    match_id: UUID
    version: int
    barred: bool = True
    code: str = BARRED_CODE
    rule: str = BARRED_RULE


class BgDelta(Entry, kw_only=True):
    """One stored backgammon event and the board after it; `position` comes first."""

    kind: str = "event"
    discipline: str = DISCIPLINE
    match_id: UUID
    board: dict[str, Any]
    competition_id: str | None = None  # on a match's creation: the competition it is of


def _entry(rec: Record) -> Entry:
    return Entry(
        position=rec.position,
        version=rec.version,
        type=rec.type,
        recorded_at=rec.recorded_at,
        rule=rec.event.rule,
        event=rec.event,
    )


class BgRenderer:
    """Renders each backgammon event as a delta on `match:<id>`, folding its stream in the
    process's fold cache among `folders` (its own when handed none); every other event is not
    its business."""

    def __init__(self, registry: EventRegistry, folders: Folders | None = None, **_: object):
        self.folder = (folders or Folders(registry)).of(BG_FOLD)  # the read model's too

    async def render(
        self, conn: asyncpg.Connection, records: list[Record], wanted: Wanted = everyone
    ) -> list[Message]:
        out = []
        for rec in records:
            if type(rec.event) in _TYPES:
                state = (await self.folder.advance(conn, rec)).state
                if wanted(names := _channels(rec, state)):
                    comp = await _competition_of(conn, rec)
                    text = encode_delta(rec, state, comp)
                    reshapes = isinstance(rec.event, BARS)  # KSI 1.6.4: the snapshot changes
                    out.append(Message(rec.position, text, names, reshapes))
        return out


async def _competition_of(conn: asyncpg.Connection, rec: Record) -> str | None:
    """The competition a new match was started for, said once on its creation (a face keeps
    it with the match's row: the venue screen filtered to a competition)."""
    if not isinstance(rec.event, MatchCreated):
        return None
    return await conn.fetchval(COMPETITION_OF, rec.stream_id)


def _channels(rec: Record, state: MatchState) -> tuple[str, ...]:
    """The match's and the hall's; a match created on a table is news on the table's channel
    too (its judge device moves to it)."""
    channels = (f"match:{rec.stream_id}", f"hall:{HALL}")
    if isinstance(rec.event, MatchCreated) and state.table:
        return (*channels, f"table:{state.table}")
    return channels


def encode_delta(rec: Record, state: MatchState, competition_id: str | None = None) -> bytes:
    """The JSON text of one delta; of a match whose spectators are barred, only the notice
    (KSI 1.6.4)."""
    if state.barred_by:
        return _encoder.encode(
            BgBarred(position=rec.position, match_id=rec.stream_id, version=rec.version)
        )
    entry = _entry(rec)
    fields = msgspec.structs.asdict(entry)
    board = board_doc(state)
    return _encoder.encode(
        BgDelta(**fields, match_id=rec.stream_id, board=board, competition_id=competition_id)
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
    state = BG_FOLD.whole(records).state
    message = {
        "kind": "snapshot",
        "position": position,
        "filter": {kind: value},
        "discipline": DISCIPLINE,
        "matches": [],
        "backgammon": _match_doc(value, records, state),
    }
    return position, _encoder.encode(message)


def _match_doc(match_id: str, records: list[Record], state: MatchState) -> dict[str, Any]:
    """The board and the recent events; of a match whose spectators are barred at a player's
    request, only that they are (KSI 1.6.4)."""
    doc: dict[str, Any] = {"match_id": match_id, "version": records[-1].version}
    if state.barred_by:
        return {**doc, "board": None, "entries": [], "barred": True, "code": BARRED_CODE,
                "rule": BARRED_RULE}  # fmt: skip
    return {**doc, "board": board_doc(state), "entries": [_entry(r) for r in _recent(records)]}


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
