"""Which match a table plays now, from the followed log: the newest scheduling owns a table;
a table seen since the hub started is known without a database read (issue 15)."""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime

from tableside.eventlog.source import Record
from tableside.match.events import MatchScheduled, PlayersCalled
from tableside.match.tables_now import TablesNow


def _rec(stream, position: int, event) -> Record:
    return Record(stream, 2, position, type(event).__name__, event, datetime.now(UTC))


def test_the_newest_scheduling_owns_the_table_without_a_read():
    tables, first, second = TablesNow(), uuid.uuid4(), uuid.uuid4()
    tables.follow(100, [_rec(first, 101, MatchScheduled(table=5))])
    tables.follow(101, [_rec(second, 140, MatchScheduled(table=5))])
    tables.follow(140, [_rec(first, 150, PlayersCalled(table=5))])  # not a scheduling
    # No pool: a table followed since the start is answered from memory alone.
    assert asyncio.run(tables.current(None, 5)) == (second, 140)
    assert asyncio.run(tables.current(None, None)) is None


def test_an_older_scheduling_seen_later_does_not_take_the_table():
    tables, newer, older = TablesNow(), uuid.uuid4(), uuid.uuid4()
    tables.follow(0, [_rec(newer, 9, MatchScheduled(table=2))])
    tables.follow(9, [_rec(older, 3, MatchScheduled(table=2))])  # e.g. a replayed batch
    assert asyncio.run(tables.current(None, 2)) == (newer, 9)
