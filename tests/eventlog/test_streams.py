"""The one stream service (`eventlog.streams.Streams`) on the in-memory store, as every
aggregate uses it: one fold per event per process, a conflict or a replay drops the cached
fold, and a policy's `submit` decides again on the news (issue 15)."""

from __future__ import annotations

import uuid

import msgspec
import pytest
from tableside.eventlog import EventRegistry, EventStore, VersionConflict
from tableside.eventlog.streams import Folded, Streams


class Added(msgspec.Struct, frozen=True, tag="TestAdded"):
    n: int
    items: tuple[str, ...] = ()


def _store() -> EventStore:
    return EventStore.in_memory(EventRegistry(Added))


class Counter:
    """A fold that counts its calls: (sum of n, the items of the last event)."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, value, rec):
        self.calls += 1
        total = (value or (0, ()))[0]
        return (total + rec.event.n, rec.event.items)


def _append(streams: Streams, stream: uuid.UUID, n: int, base: Folded | None = None, cid=None):
    base = base or streams.current(stream)
    return streams.append(stream, [Added(n)], base=base, command_id=cid or uuid.uuid4())


def test_each_event_is_folded_once_by_the_process_that_appended_it():
    fold = Counter()
    streams, stream = Streams(_store(), fold), uuid.uuid4()
    for n in range(1, 6):
        _append(streams, stream, n)
    assert fold.calls == 5
    assert streams.current(stream) == Folded(5, (15, ()))
    assert fold.calls == 5, "a current cached fold read and folded the stream again"


def test_a_fresh_append_folds_the_stored_bytes_not_the_callers_object():
    streams, stream = Streams(_store(), Counter()), uuid.uuid4()
    streams.append(stream, [Added(1, ["a"])], base=Folded(0, None), command_id=uuid.uuid4())
    ours = streams.current(stream).value
    theirs = Streams(streams.store, Counter()).current(stream).value
    assert ours == theirs == (1, ("a",))  # a list handed in comes back as the stored tuple


def test_a_conflict_drops_the_cached_fold_and_the_next_use_reads_the_news():
    store, stream = _store(), uuid.uuid4()
    ours, theirs = Streams(store, Counter()), Streams(store, Counter())
    _append(ours, stream, 1)
    seen = ours.current(stream)
    _append(theirs, stream, 10)  # another process moves the stream on
    with pytest.raises(VersionConflict) as caught:
        _append(ours, stream, 2, base=seen)
    assert caught.value.current_version == 2
    assert ours.at_least(stream, 1) == Folded(2, (11, ()))


def test_a_replayed_command_changes_nothing_and_is_not_folded_twice():
    streams, stream, cid = Streams(_store(), Counter()), uuid.uuid4(), uuid.uuid4()
    first = _append(streams, stream, 3, cid=cid)
    again = _append(streams, stream, 3, base=Folded(0, None), cid=cid)
    assert again.replayed and again.last_version == first.last_version
    assert streams.current(stream) == Folded(1, (3, ()))


def test_submit_decides_again_after_a_conflict():
    store, stream = _store(), uuid.uuid4()
    ours, theirs = Streams(store, Counter()), Streams(store, Counter())
    _append(ours, stream, 1)
    ours.current(stream)
    seen = []

    def decide(value):
        seen.append(value)
        if len(seen) == 1:
            _append(theirs, stream, 100)  # a racing writer between our read and our append
        return [Added(value[0])]  # double the total seen

    result = ours.submit(stream, decide, command_id=uuid.uuid4())
    assert seen == [(1, ()), (101, ())]
    assert result.last_version == 3
    assert ours.current(stream).value == (202, ())


def test_submit_with_nothing_to_do_appends_nothing():
    streams, stream = Streams(_store(), Counter()), uuid.uuid4()
    _append(streams, stream, 1)
    assert streams.submit(stream, lambda value: None, command_id=uuid.uuid4()) is None
    assert streams.store.current_version(stream) == 1
