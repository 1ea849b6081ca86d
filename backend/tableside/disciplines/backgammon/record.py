"""The record as it stands (KSI 3.8): which events an undo left on it.

`UndoLast` stores an `EntryUndone(to_version)`: the match returns to what stood after that
version (versions count a match's events from 1), so the entries between leave the record;
an undone undo brings them back. What prints or exports a match reads the kept events.
"""

from __future__ import annotations

from collections.abc import Sequence

from tableside.disciplines.backgammon import events as ev


def kept(events: Sequence[ev.Event]) -> list[int]:
    """The indices of the events still on the record, in order (never an `EntryUndone`)."""
    after: dict[int, tuple] = {0: ()}  # version -> the kept indices as a linked list
    node: tuple = ()
    for i, e in enumerate(events):
        node = after.get(e.to_version, node) if type(e) is ev.EntryUndone else (i, node)
        after[i + 1] = node
    out: list[int] = []
    while node:
        out.append(node[0])
        node = node[1]
    return out[::-1]
