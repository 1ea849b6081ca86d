"""The record as it stands: which events an undo or an overturned ruling left on it.

`UndoLast` stores an `EntryUndone(to_version)`: the match returns to what stood after that
version (versions count a match's events from 1), so the entries between leave the record;
an undone undo brings them back. A jury overturning a ruling (`RulingOverturned`, KSI 5.2)
returns the board to the call: what was done at the board since leaves the record, the dispute
itself (the call, the ruling, testimony, the appeal) stays. What prints or exports a match
reads the kept events.
"""

from __future__ import annotations

from collections.abc import Sequence

from tableside.disciplines.backgammon import events as ev

# what an overturn leaves on the record of the events since the call
DISPUTE = (
    ev.TDCalled,
    ev.RulingGiven,
    ev.AppealLodged,
    ev.TestimonyRecorded,
    ev.MonitorAppointed,
    ev.MonitorReported,
    ev.SpectatorsBarred,
    ev.SpectatorsAdmitted,
)


def kept(events: Sequence[ev.Event]) -> list[int]:
    """The indices of the events still on the record, in order (never an `EntryUndone`)."""
    after: dict[int, tuple] = {0: ()}  # version -> the kept indices as a linked list
    node: tuple = ()
    for i, e in enumerate(events):
        if type(e) is ev.EntryUndone:
            node = after.get(e.to_version, node)
        elif type(e) is ev.RulingOverturned:
            node = _overturn(node, after.get(e.to_version), events, i, e.to_version)
        else:
            node = (i, node)
        after[i + 1] = node
    out: list[int] = []
    while node:
        out.append(node[0])
        node = node[1]
    return out[::-1]


def _overturn(
    node: tuple, base: tuple | None, events: Sequence[ev.Event], i: int, to_version: int
) -> tuple:
    """The record after an overturn at index `i`: `base` (the record at the call, version
    `to_version`) with the dispute's own entries since, then the overturn."""
    if base is None:
        return (i, node)
    since: list[int] = []
    while node and node is not base:
        since.append(node[0])
        node = node[1]
    for j in reversed(since):
        if j >= to_version and type(events[j]) in DISPUTE:
            base = (j, base)
    return (i, base)
