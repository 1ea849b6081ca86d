"""The event store: append to a stream, read a stream, read the global order."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any, NamedTuple
from uuid import UUID

import anyio.to_thread
import msgspec
from eventsourcing.application import Application
from eventsourcing.persistence import (
    DatabaseError,
    IntegrityError,
    InterfaceError,
    OperationalError,
)
from eventsourcing.postgres import PostgresFactory
from eventsourcing.utils import Environment

from tableside.db.url import eventsourcing_env
from tableside.eventlog.group_commit import AsyncGroupCommit, GroupCommit
from tableside.eventlog.mapper import EventMapper
from tableside.eventlog.memory import MemoryEventRecorder
from tableside.eventlog.recorder import CommandRows, PostgresEventRecorder
from tableside.eventlog.records import (
    AppendResult,
    CommandReused,
    Envelope,
    RawRecord,
    StoredEvent,
    VersionConflict,
    result_from,
)
from tableside.eventlog.registry import EventRegistry

_meta_encoder = msgspec.json.Encoder(order="sorted")

STORED, REPLAYED, REUSED, CONFLICT = "stored", "replayed", "reused", "conflict"


class Pending(NamedTuple):
    """One checked append on its way to the database."""

    stream_id: UUID
    expected_version: int
    envelopes: tuple[Envelope, ...]
    command_id: UUID
    meta: str
    digest: bytes | None


class Outcome(NamedTuple):
    """What the database did with one command: stored (at `positions`), replayed (the
    command_id holds this command already), reused (it holds another), conflict."""

    kind: str
    positions: tuple[int, ...] = ()


def _group_wait(env: Mapping[str, str], session: Mapping[str, str] | None = None) -> float:
    """How long an append waits for its turn: as long as for a pooled connection plus the
    longest a statement may run (the session's statement_timeout; 30 s when it says none)."""
    pool_wait = float(env.get("POSTGRES_CONNECT_TIMEOUT", 10) or 10)
    statement_ms = float((session or {}).get("statement_timeout", 0) or 30_000)
    return pool_wait + statement_ms / 1000


class _StoreApplication(Application[UUID]):
    """The library's Application wired to our mapper and recorders."""

    name = "Tableside"

    def __init__(self, registry: EventRegistry, env: Mapping[str, str]) -> None:
        self.registry = registry
        super().__init__(env=dict(env))

    def construct_env(self, name: str, env: Any = None) -> Environment:
        # Only what Settings resolved: the library would otherwise merge os.environ in.
        return Environment(name, dict(env or {}))

    def construct_mapper(self) -> EventMapper:
        return EventMapper(self.registry)

    def construct_recorder(self) -> Any:
        if isinstance(self.factory, PostgresFactory):
            return PostgresEventRecorder(self.factory.datastore)
        return MemoryEventRecorder()


class EventStore:
    """Sync API over the library's Application; the web layer calls it from worker threads."""

    def __init__(self, registry: EventRegistry, env: Mapping[str, str]) -> None:
        self.registry = registry
        self.app = _StoreApplication(registry, env)
        self._recorder: PostgresEventRecorder | MemoryEventRecorder = self.app.recorder
        # Group commit on PostgreSQL (issue 32 point 4, docs/decisions/0085); the in-memory
        # recorder appends one command at a time.
        self._commits: GroupCommit[Pending, Outcome] | None = None
        self._loop_commits: AsyncGroupCommit[Pending, Outcome] | None = None  # on first use
        if isinstance(self._recorder, PostgresEventRecorder):
            self._commits = GroupCommit(self._flush, wait_seconds=_group_wait(env))

    @classmethod
    def connect(
        cls,
        registry: EventRegistry,
        database_url: str,
        pool_size: int = 5,
        *,
        wait_seconds: float = 10.0,
        session: Mapping[str, str] | None = None,
    ) -> EventStore:
        """A store on a migrated PostgreSQL database: a connection is waited for at most
        `wait_seconds`; `session` sets its connections' settings (lock_timeout, …)."""
        env = eventsourcing_env(database_url, pool_size, wait_seconds)
        store = cls(registry, env)
        if session and isinstance(store._recorder, PostgresEventRecorder):
            # libpq's options, read by each connection the pool opens (none is open yet).
            options = " ".join(f"-c {name}={value}" for name, value in session.items())
            store._recorder.datastore.pool.kwargs["options"] = options
            if store._commits is not None:
                store._commits = GroupCommit(store._flush, wait_seconds=_group_wait(env, session))
        return store

    @classmethod
    def in_memory(cls, registry: EventRegistry) -> EventStore:
        """A store on the library's in-memory recorder (for tests)."""
        return cls(registry, {"PERSISTENCE_MODULE": "eventsourcing.popo"})

    def append(
        self,
        stream_id: UUID,
        events: Sequence[msgspec.Struct],
        *,
        expected_version: int,
        command_id: UUID,
        meta: Mapping[str, str] | None = None,
        command_digest: bytes | None = None,
    ) -> AppendResult:
        """Append events after `expected_version`, once per command_id.

        With `command_digest` (`tableside.eventlog.digest`), a command_id stored with another
        digest raises CommandReused and nothing is written."""
        pending = self._pending(
            stream_id, events, expected_version, command_id, meta, command_digest
        )
        outcome = self._commits.submit(pending) if self._commits else self._save_one(pending)
        return self._answer(pending, outcome)

    async def append_async(
        self,
        stream_id: UUID,
        events: Sequence[msgspec.Struct],
        *,
        expected_version: int,
        command_id: UUID,
        meta: Mapping[str, str] | None = None,
        command_digest: bytes | None = None,
    ) -> AppendResult:
        """`append` for a caller on the event loop: batched with the loop's other appends
        (one worker-thread hop per batch, `AsyncGroupCommit`); the reads a conflict or a
        replay needs run in a worker thread."""
        if self._commits is None:  # the in-memory store: as append, in a thread
            call = partial(
                self.append,
                stream_id,
                events,
                expected_version=expected_version,
                command_id=command_id,
                meta=meta,
                command_digest=command_digest,
            )
            return await anyio.to_thread.run_sync(call)
        pending = self._pending(
            stream_id, events, expected_version, command_id, meta, command_digest
        )
        if self._loop_commits is None:
            self._loop_commits = AsyncGroupCommit(
                partial(anyio.to_thread.run_sync, self._flush), wait_seconds=self._commits.wait
            )
        outcome = await self._loop_commits.submit(pending)
        if outcome.kind == STORED:
            return self._answer(pending, outcome)
        return await anyio.to_thread.run_sync(self._answer, pending, outcome)

    def _pending(
        self,
        stream_id: UUID,
        events: Sequence[msgspec.Struct],
        expected_version: int,
        command_id: UUID,
        meta: Mapping[str, str] | None,
        command_digest: bytes | None,
    ) -> Pending:
        """An append checked (`_check_append`) and wrapped for a transaction."""
        encoded_meta = _check_append(
            self.registry, stream_id, events, expected_version, command_id, meta
        )
        envelopes = (Envelope(stream_id, expected_version + i, e) for i, e in enumerate(events, 1))
        return Pending(
            stream_id, expected_version, tuple(envelopes), command_id, encoded_meta, command_digest
        )

    def _save_one(self, pending: Pending) -> Outcome:
        """One command in a transaction of its own (the library's save, as before #32)."""
        try:
            recordings = self.app.save(
                *pending.envelopes,
                command_id=pending.command_id,
                meta=pending.meta,
                command_digest=pending.digest,
            )
        except IntegrityError:
            return Outcome(CONFLICT)
        except CommandReused:
            return Outcome(REUSED)
        if not recordings:  # the recorder found this command_id already stored
            return Outcome(REPLAYED)
        return Outcome(STORED, tuple(r.notification.id for r in recordings))

    def _flush(self, batch: Sequence[Pending]) -> list[Outcome | BaseException]:
        """Group commit's flush: a lone command as before; several in one transaction
        (`insert_commands`, schema/012). A batch the database refuses whole for another
        reason than a command's own conflict is retried one command at a time, so no
        command's fault sinks another."""
        if len(batch) == 1:
            return [self._save_one(batch[0])]
        recorder = self._recorder
        assert isinstance(recorder, PostgresEventRecorder)
        to_stored = self.app.mapper.to_stored_event
        commands = [
            CommandRows(p.command_id, p.digest, p.meta, [to_stored(e) for e in p.envelopes])
            for p in batch
        ]
        try:
            answers = recorder.insert_commands(commands)
        except (InterfaceError, OperationalError):
            raise  # the database is away (retried already): every command meets it, at once
        except DatabaseError:
            return [self._save_alone(p) for p in batch]
        return [Outcome(kind, tuple(positions)) for kind, positions in answers]

    def _save_alone(self, pending: Pending) -> Outcome | BaseException:
        try:
            return self._save_one(pending)
        except Exception as exc:  # this command's own fault, answered to it alone
            return exc

    def _answer(self, pending: Pending, outcome: Outcome) -> AppendResult:
        """The caller's result (or exception) from its command's outcome; the reads a
        conflict or a replay needs run in the caller's thread, after the batch."""
        stream_id, expected = pending.stream_id, pending.expected_version
        if outcome.kind == CONFLICT:
            raise VersionConflict(stream_id, expected, self.current_version(stream_id))
        if outcome.kind == REUSED:
            raise CommandReused(pending.command_id)
        if outcome.kind == REPLAYED:
            return self._replay(pending.command_id)
        events = [e.event for e in pending.envelopes]
        return AppendResult(
            stream_id=stream_id,
            first_version=expected + 1,
            last_version=expected + len(events),
            positions=outcome.positions,
            payloads=tuple(self.registry.encode(e) for e in events),
        )

    def read(self, stream_id: UUID, after_version: int = 0) -> list[StoredEvent]:
        """One stream's events after `after_version`, in version order."""
        return [self.decode(r) for r in self._recorder.stream_records(stream_id, after_version)]

    def read_all(self, after_position: int = 0, limit: int = 1000) -> list[StoredEvent]:
        """Up to `limit` events after a global position, in the gapless global order."""
        return [self.decode(r) for r in self.read_raw(after_position, limit)]

    def read_raw(self, after_position: int = 0, limit: int = 1000) -> list[RawRecord]:
        """Like read_all, undecoded (for verification and export)."""
        if limit < 1:
            raise ValueError("limit must be at least 1")
        return self._recorder.records_after(after_position, limit)

    def last_position(self) -> int:
        """The newest global position; 0 for an empty store (a snapshot's `as of`)."""
        return self._recorder.max_notification_id() or 0

    def current_version(self, stream_id: UUID) -> int:
        """The stream's last version; 0 for a stream with no events."""
        return self._recorder.stream_version(stream_id)

    def decode(self, record: RawRecord) -> StoredEvent:
        """Decode a raw record; an unregistered type raises UnknownEventType naming it."""
        return StoredEvent(
            stream_id=record.stream_id,
            version=record.version,
            position=record.position,
            type=record.type_name,
            event=self.registry.decode(record.type_name, record.payload),
            recorded_at=record.recorded_at,
            command_id=record.command_id,
            meta=msgspec.json.decode(record.meta),
            prev_hash=record.prev_hash,
            hash=record.hash,
        )

    def check_connections(self) -> None:
        """Drop the pool's dead connections (after a database restart), so no request meets
        one; the pool opens new ones in their place."""
        if isinstance(self._recorder, PostgresEventRecorder):
            self._recorder.datastore.pool.check()

    def close(self) -> None:
        """Close the connection pool."""
        self.app.close()

    def __enter__(self) -> EventStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _replay(self, command_id: UUID) -> AppendResult:
        return result_from(self._recorder.command_records(command_id), replayed=True)


def _check_append(
    registry: EventRegistry,
    stream_id: object,
    events: Sequence[object],
    expected_version: object,
    command_id: object,
    meta: Mapping[str, str] | None,
) -> str:
    """Reject bad input before anything is written; return the canonical meta JSON."""
    if not isinstance(stream_id, UUID) or not isinstance(command_id, UUID):
        raise TypeError("stream_id and command_id must be UUIDs")
    if isinstance(expected_version, bool) or not isinstance(expected_version, int):
        raise TypeError("expected_version must be an int")
    if expected_version < 0:
        raise ValueError("expected_version must be 0 (new stream) or more")
    if isinstance(events, (str, bytes)) or not events:
        raise ValueError("append needs at least one event")
    for event in events:
        registry.name_of(event)
    meta = dict(meta or {})
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in meta.items()):
        raise TypeError("meta must map str to str")
    return _meta_encoder.encode(meta).decode()
