"""The event store's contract, run against PostgreSQL and the library's in-memory recorder."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator

import pytest
from store_events import TEST_EVENT_TYPES, GameClosed, NotRegistered, PuckPocketed
from tableside.eventlog import (
    CommandReused,
    EventRegistry,
    EventStore,
    UnknownEventType,
    VersionConflict,
)
from tableside.eventlog.digest import command_digest
from tableside.eventlog.verify import verify

WRITERS = 20
EVENTS_PER_WRITER = 10


def pocket(n: int) -> PuckPocketed:
    return PuckPocketed(player="Mari", puck=n)


class StoreContract:
    """Every store backend must pass these; subclasses provide the `store` fixture."""

    def test_append_then_read_returns_events_in_order(self, store: EventStore) -> None:
        stream, command = uuid.uuid4(), uuid.uuid4()
        result = store.append(
            stream,
            [pocket(1), GameClosed("Mari")],
            expected_version=0,
            command_id=command,
            meta={"recorder": "table-3", "role": "judge"},
        )
        assert (result.first_version, result.last_version, result.replayed) == (1, 2, False)
        events = store.read(stream)
        assert [e.event for e in events] == [pocket(1), GameClosed("Mari")]
        assert [e.version for e in events] == [1, 2]
        assert [e.position for e in events] == list(result.positions)
        assert {e.command_id for e in events} == {command}
        assert events[0].type == "test.PuckPocketed"
        assert events[0].meta == {"recorder": "table-3", "role": "judge"}
        assert events[1].prev_hash == events[0].hash

    def test_command_id_reused_with_another_digest_raises_and_stores_nothing(
        self, store: EventStore
    ) -> None:
        stream, command = uuid.uuid4(), uuid.uuid4()
        stroke = command_digest("match.command", stream, {"type": "RecordStroke"})
        red = command_digest("match.command", stream, {"type": "GiveWarning", "card": "red"})
        first = store.append(
            stream, [pocket(1)], expected_version=0, command_id=command, command_digest=stroke
        )
        with pytest.raises(CommandReused) as caught:
            store.append(
                stream,
                [GameClosed("Mari")],
                expected_version=1,
                command_id=command,
                command_digest=red,
            )
        assert caught.value.command_id == command
        assert [e.event for e in store.read(stream)] == [pocket(1)]
        again = store.append(
            stream, [pocket(1)], expected_version=0, command_id=command, command_digest=stroke
        )
        assert again.replayed and again.positions == first.positions
        unknown = store.append(stream, [pocket(9)], expected_version=0, command_id=command)
        assert unknown.replayed  # no digest to compare: a retry, as before digests existed

    def test_read_after_version_skips_earlier_events(self, store: EventStore) -> None:
        stream = uuid.uuid4()
        store.append(
            stream, [pocket(1), pocket(2), pocket(3)], expected_version=0, command_id=uuid.uuid4()
        )
        assert [e.event.puck for e in store.read(stream, after_version=2)] == [3]
        assert store.read(uuid.uuid4()) == []
        assert store.current_version(stream) == 3

    def test_stale_expected_version_conflicts_with_current_version(self, store: EventStore) -> None:
        stream = uuid.uuid4()
        store.append(stream, [pocket(1), pocket(2)], expected_version=0, command_id=uuid.uuid4())
        for stale in (0, 1, 5):
            with pytest.raises(VersionConflict) as caught:
                store.append(stream, [pocket(3)], expected_version=stale, command_id=uuid.uuid4())
            assert caught.value.current_version == 2
            assert caught.value.expected_version == stale
        assert len(store.read(stream)) == 2

    def test_retried_command_returns_original_result_and_stores_nothing(
        self, store: EventStore
    ) -> None:
        stream, command = uuid.uuid4(), uuid.uuid4()
        first = store.append(stream, [pocket(1), pocket(2)], expected_version=0, command_id=command)
        store.append(stream, [pocket(3)], expected_version=2, command_id=uuid.uuid4())
        again = store.append(stream, [pocket(1), pocket(2)], expected_version=0, command_id=command)
        assert again.replayed
        assert (again.first_version, again.last_version, again.positions) == (
            first.first_version,
            first.last_version,
            first.positions,
        )
        assert len(store.read(stream)) == 3

    def test_simultaneous_retries_store_the_command_once(self, store: EventStore) -> None:
        stream, command = uuid.uuid4(), uuid.uuid4()
        results: list[object] = []

        def send() -> None:
            try:
                results.append(
                    store.append(stream, [pocket(1)], expected_version=0, command_id=command)
                )
            except VersionConflict as exc:
                results.append(exc)

        threads = [threading.Thread(target=send) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=30)
        assert len(store.read(stream)) == 1
        assert not any(isinstance(r, VersionConflict) for r in results)
        assert sorted(r.replayed for r in results) == [False] + [True] * 7  # type: ignore[attr-defined]

    def test_read_all_follows_global_order(self, store: EventStore) -> None:
        start = _tip(store)
        a, b = uuid.uuid4(), uuid.uuid4()
        store.append(a, [pocket(1)], expected_version=0, command_id=uuid.uuid4())
        store.append(b, [pocket(1), pocket(2)], expected_version=0, command_id=uuid.uuid4())
        store.append(a, [GameClosed("Mari")], expected_version=1, command_id=uuid.uuid4())
        seen = store.read_all(after_position=start)
        assert [(e.stream_id, e.version) for e in seen] == [(a, 1), (b, 1), (b, 2), (a, 2)]
        assert [e.position for e in seen] == list(range(start + 1, start + 5))
        assert [e.position for e in store.read_all(start, limit=2)] == [start + 1, start + 2]

    def test_bad_input_is_rejected_before_anything_is_written(self, store: EventStore) -> None:
        stream = uuid.uuid4()
        bad_calls = [
            dict(events=[], expected_version=0),
            dict(events=[pocket(1), NotRegistered("x")], expected_version=0),
            dict(events=[pocket(1)], expected_version=-1),
            dict(events=[pocket(1)], expected_version=0, meta={"device": 7}),
        ]
        for call in bad_calls:
            with pytest.raises((ValueError, TypeError, UnknownEventType)):
                store.append(stream, command_id=uuid.uuid4(), **call)  # type: ignore[arg-type]
        assert store.read(stream) == []

    def test_unknown_type_on_read_names_the_type(self, store: EventStore) -> None:
        stream = uuid.uuid4()
        store.append(stream, [GameClosed("Mari")], expected_version=0, command_id=uuid.uuid4())
        store.registry = EventRegistry(PuckPocketed)  # a reader that never learnt GameClosed
        with pytest.raises(UnknownEventType, match=r"test\.GameClosed"):
            store.read(stream)

    def test_stored_chain_verifies(self, store: EventStore) -> None:
        for n in range(3):
            store.append(
                uuid.uuid4(),
                [pocket(n), pocket(n + 1)],
                expected_version=0,
                command_id=uuid.uuid4(),
                meta={"device_time": f"10:0{n}"},
            )
        report = verify(store.read_raw(0, limit=100_000))
        assert report.broken is None
        assert report.events >= 6

    def test_concurrent_writers_while_a_reader_tails(self, store: EventStore) -> None:
        start = _tip(store)
        total = WRITERS * EVENTS_PER_WRITER
        seen: list[int] = []
        errors: list[BaseException] = []
        reader = threading.Thread(target=_tail, args=(store, start, total, seen, errors))
        writers = [threading.Thread(target=_write, args=(store, errors)) for _ in range(WRITERS)]
        reader.start()
        for writer in writers:
            writer.start()
        for thread in [*writers, reader]:
            thread.join(timeout=60)
        assert errors == []
        assert seen == list(range(start + 1, start + total + 1))  # no gap, no reorder, no miss


def _tip(store: EventStore) -> int:
    tip = store.last_position()
    assert store.read_all(after_position=tip) == []
    return tip


def _write(store: EventStore, errors: list[BaseException]) -> None:
    stream = uuid.uuid4()
    try:
        for version in range(EVENTS_PER_WRITER):
            store.append(
                stream, [pocket(version)], expected_version=version, command_id=uuid.uuid4()
            )
    except BaseException as exc:  # surfaced by the test's assertion
        errors.append(exc)


def _tail(
    store: EventStore, after: int, total: int, seen: list[int], errors: list[BaseException]
) -> None:
    deadline = time.monotonic() + 30
    try:
        while len(seen) < total and time.monotonic() < deadline:
            batch = store.read_all(after_position=after, limit=17)
            for event in batch:
                if event.position != after + 1:
                    raise AssertionError(f"expected position {after + 1}, got {event.position}")
                after = event.position
                seen.append(after)
            if not batch:
                time.sleep(0.001)
    except BaseException as exc:
        errors.append(exc)


class TestInMemoryStore(StoreContract):
    """The library's POPO recorder, extended the same way as the PostgreSQL one."""

    @pytest.fixture
    def store(self) -> Iterator[EventStore]:
        with EventStore.in_memory(EventRegistry(*TEST_EVENT_TYPES)) as store:
            yield store


class TestPostgresStore(StoreContract):
    """The library's PostgreSQL recorder on a fresh migrated database per test."""

    @pytest.fixture
    def store(self, database_url: str) -> Iterator[EventStore]:
        with EventStore.connect(EventRegistry(*TEST_EVENT_TYPES), database_url) as store:
            yield store
