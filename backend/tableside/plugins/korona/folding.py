"""Fold one match stream (rules + venue events) into a MatchView, one stored event at a time.

`Record` (a decoded stored event) is the event log's; it is re-exported here for the folds."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

import msgspec
from msgspec.structs import replace

from tableside.disciplines.korona import EVENT_TYPES as RULES_EVENT_TYPES
from tableside.disciplines.korona import events as ev
from tableside.disciplines.korona.fold import apply, splice
from tableside.disciplines.korona.state import MatchState, initial_state
from tableside.eventlog.source import Record
from tableside.match.events import MatchAbandoned, MatchScheduled, PlayersCalled

_RULES = frozenset(RULES_EVENT_TYPES)
_INITIAL = initial_state()  # immutable, so one shared value is safe


class Entries:
    """The rules entries `(version, event)` after corrections, as a persistent list: one more
    entry is O(1) (a stream of N events would otherwise copy N²/2 tuple slots); iterating
    walks the links back once. Compares and hashes as the tuple it stands for."""

    __slots__ = ("_item", "_kept", "_prev", "_size")

    def __init__(self, prev: Entries | None = None, item: tuple | None = None) -> None:
        self._prev, self._item = prev, item
        self._size = 0 if item is None else 1 + (prev._size if prev else 0)
        self._kept: tuple | None = None  # (types, matching(types)): a cache, not a value

    @classmethod
    def of(cls, items: tuple) -> Entries:
        """A list holding exactly `items`."""
        entries = cls()
        for item in items:
            entries = entries.plus(item)
        return entries

    def plus(self, item: tuple) -> Entries:
        """This list with one more entry at the end."""
        return Entries(self if self._size else None, item)

    def __iter__(self):
        return iter(self.as_tuple())

    def __len__(self) -> int:
        return self._size

    def as_tuple(self) -> tuple:
        """The entries, oldest first."""
        out, node = [], self
        while node is not None and node._item is not None:
            out.append(node._item)
            node = node._prev
        return tuple(reversed(out))

    def matching(self, types: frozenset) -> tuple:
        """`(index, version, event)` of the entries whose event type is in `types`, oldest
        first. Kept on each list for the last `types` asked, so the list one entry longer
        answers from its predecessor's: O(1) per new entry, not a walk of the whole match."""
        fresh, node = [], self
        while node._item is not None and not (node._kept and node._kept[0] is types):
            fresh.append(node)
            node = node._prev or _NO_ENTRIES
        found = node._kept[1] if node._item is not None else ()
        for entry in reversed(fresh):
            version, event = entry._item
            if type(event) in types:
                found = (*found, (entry._size - 1, version, event))
            entry._kept = (types, found)
        return found

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Entries):
            return self._size == other._size and self.as_tuple() == other.as_tuple()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.as_tuple())

    def __repr__(self) -> str:
        return f"Entries({self.as_tuple()!r})"


_NO_ENTRIES = Entries()


class MatchView(msgspec.Struct, frozen=True):
    """A match after some stored version: the engine's state plus what the venue knows (a
    frozen Struct: one cheap `replace` per folded event)."""

    match_id: UUID
    version: int = 0
    position: int = 0
    state: MatchState = _INITIAL
    table: int | None = None
    competition_id: str = ""
    called: bool = False
    scheduled_position: int = 0  # when it was put on its table: the newest match owns a table
    effective: Entries = _NO_ENTRIES  # rules entries after corrections
    updated_at: datetime | None = None
    abandoned: str = ""  # the reason, once the match was given up unfinished
    won_by: str = ""  # the side a forfeit closing it gave the match to ("a" / "b")
    board: int = 0  # a team match's board this match is (EKML §29(2)); 0 otherwise


def is_match_event(event: object) -> bool:
    """True for events that belong to a match stream (not a competition's)."""
    return type(event) in _RULES or isinstance(
        event, (MatchScheduled, PlayersCalled, MatchAbandoned)
    )


def advance(view: MatchView | None, rec: Record) -> MatchView:
    """The view after one more stored event of its stream (versions must follow on)."""
    view = view or MatchView(match_id=rec.stream_id)
    if rec.version != view.version + 1:
        raise ValueError(f"stream {rec.stream_id}: version {rec.version} after {view.version}")
    stamp = {"version": rec.version, "position": rec.position, "updated_at": rec.recorded_at}
    return replace(view, **stamp, **_changes(view, rec))


def _changes(view: MatchView, rec: Record) -> dict:
    """What one event changes in the view besides its stamp (one `replace` per event)."""
    event = rec.event
    if isinstance(event, MatchScheduled):
        return {
            "table": event.table,
            "competition_id": event.competition_id,
            "scheduled_position": rec.position,
            "board": event.board,
        }
    if isinstance(event, PlayersCalled):
        return {"called": True}
    if isinstance(event, MatchAbandoned):
        return {"abandoned": event.reason or "abandoned", "won_by": event.won_by}
    if type(event) not in _RULES:
        return {}
    return {
        "state": apply(view.state, event, rec.version),
        "effective": _effective(view.effective, rec.version, event),
    }


def fold_records(records: list[Record]) -> MatchView | None:
    """A whole stream folded from version 1."""
    view = None
    for rec in records:
        view = advance(view, rec)
    return view


def _effective(entries: Entries, version: int, event: object) -> Entries:
    """The entry list as the engine sees it: a correction replaces the entry it corrects."""
    if type(event) is ev.CorrectionRecorded:
        spliced = splice(entries.as_tuple(), event)
        if spliced is not None:
            entries = Entries.of(spliced)
    return entries.plus((version, event))


__all__ = ["Entries", "MatchView", "Record", "advance", "fold_records", "is_match_event"]
