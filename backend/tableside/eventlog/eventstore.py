"""The event store: append to a stream, read a stream, read the global order.

On PostgreSQL everything goes through asyncpg on the store's home loop (`eventlog.home`: the
server's loop, or one of its own for the CLI and sync tests) into the schema/ functions
(`eventlog.recorder`); appends that meet on the loop are committed together
(`AsyncGroupCommit`). The sync API is for callers in worker threads: each call waits, bounded,
for its coroutine on the home loop. The in-memory store (the pure tests) is the `eventsourcing`
library's POPO recorder behind its Application and our mapper (decision 0217).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Mapping, Sequence
from typing import Any, NamedTuple, TypeVar
from uuid import UUID

import asyncpg
import msgspec
from eventsourcing.application import Application
from eventsourcing.persistence import IntegrityError
from eventsourcing.utils import Environment

from tableside.eventlog.group_commit import AsyncGroupCommit
from tableside.eventlog.home import Home
from tableside.eventlog.mapper import EventMapper
from tableside.eventlog.memory import MemoryEventRecorder
from tableside.eventlog.recorder import (
    CONFLICT,
    LOST,
    REPLAYED,
    REUSED,
    STORED,
    Command,
    Outcome,
    PgRecorder,
    open_store_pool,
)
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
T = TypeVar("T")


class Pending(NamedTuple):
    """One checked append on its way to the database."""

    stream_id: UUID
    expected_version: int
    events: tuple[msgspec.Struct, ...]
    command: Command


def _group_wait(wait_seconds: float, session: Mapping[str, str] | None = None) -> float:
    """How long an append waits for its turn: as long as for a pooled connection plus the
    longest a statement may run (the session's statement_timeout; 30 s when it says none)."""
    statement_ms = float((session or {}).get("statement_timeout", 0) or 30_000)
    return wait_seconds + statement_ms / 1000


class _MemoryApplication(Application[UUID]):
    """The library's Application on its in-memory recorder, with our mapper."""

    name = "Tableside"

    def __init__(self, registry: EventRegistry) -> None:
        self.registry = registry
        super().__init__(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})

    def construct_env(self, name: str, env: Any = None) -> Environment:
        # Only what we give it: the library would otherwise merge os.environ in.
        return Environment(name, dict(env or {}))

    def construct_mapper(self) -> EventMapper:
        return EventMapper(self.registry)

    def construct_recorder(self) -> Any:
        return MemoryEventRecorder()


class EventStore:
    """Appends and reads: async on the home loop, sync for callers in worker threads."""

    def __init__(
        self,
        registry: EventRegistry,
        pg: PgRecorder | None = None,
        home: Home | None = None,
        wait_seconds: float = 40.0,
    ) -> None:
        self.registry = registry
        self._pg, self._home = pg, home
        self._memory = None if pg else _MemoryApplication(registry)
        self.wait = wait_seconds  # an append's turn; its batch's flight at most twice that
        # Group commit on PostgreSQL (issue 32 point 4, decisions 0085, 0217).
        self._loop_commits: AsyncGroupCommit[Pending, Outcome] | None = None
        if pg is not None:
            self._loop_commits = AsyncGroupCommit(self._flush, wait_seconds=wait_seconds)

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
        """A store on a migrated PostgreSQL database for sync callers with no loop (the CLI,
        a test): its pool on a loop of its own. A connection is waited for at most
        `wait_seconds`; `session` sets its connections' settings (lock_timeout, …)."""
        home = Home.own()
        try:
            pool = home.call(
                open_store_pool,
                database_url,
                pool_size,
                wait_seconds,
                session,
                timeout=2 * wait_seconds + 5,
            )
        except BaseException:
            home.close()
            raise
        return cls(registry, PgRecorder(pool), home, _group_wait(wait_seconds, session))

    @classmethod
    async def open(
        cls,
        registry: EventRegistry,
        database_url: str,
        pool_size: int = 5,
        *,
        wait_seconds: float = 10.0,
        session: Mapping[str, str] | None = None,
    ) -> EventStore:
        """`connect` for a caller on an event loop (the server): the pool on this loop."""
        pool = await open_store_pool(database_url, pool_size, wait_seconds, session)
        return cls(registry, PgRecorder(pool), Home.here(), _group_wait(wait_seconds, session))

    @classmethod
    def in_memory(cls, registry: EventRegistry) -> EventStore:
        """A store on the library's in-memory recorder (for tests)."""
        return cls(registry)

    @property
    def pool(self) -> asyncpg.Pool | None:
        """The store's asyncpg pool (None in memory)."""
        return self._pg.pool if self._pg else None

    def _sync(self, work: Callable[..., Coroutine[Any, Any, T]], *args: Any) -> T:
        """`await work(*args)` on the home loop, for a caller in another thread."""
        assert self._home is not None
        return self._home.call(work, *args, timeout=3 * self.wait)

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
        if self._memory is None:
            return self._sync(self._append_pending, pending)
        return self._answer_memory(pending, self._save_memory(pending))

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
        """`append` for a caller on the home loop: batched with the loop's other appends
        (`AsyncGroupCommit`), no thread hop (a caller on another loop is handed over)."""
        pending = self._pending(
            stream_id, events, expected_version, command_id, meta, command_digest
        )
        if self._memory is not None:  # in memory: at once, on the loop
            return self._answer_memory(pending, self._save_memory(pending))
        assert self._home is not None
        if self._home.loop is asyncio.get_running_loop():  # the server's path: no hop
            return await self._append_pending(pending)
        return await self._home.visit(self._append_pending, pending)

    async def _append_pending(self, pending: Pending) -> AppendResult:
        assert self._loop_commits is not None
        outcome = await self._loop_commits.submit(pending)
        if outcome.kind == STORED:
            return self._stored(pending, outcome)
        return await self._answer(pending, outcome)

    def _pending(
        self,
        stream_id: UUID,
        events: Sequence[msgspec.Struct],
        expected_version: int,
        command_id: UUID,
        meta: Mapping[str, str] | None,
        command_digest: bytes | None,
    ) -> Pending:
        """An append checked (`_check_append`) and encoded for a transaction."""
        encoded_meta = _check_append(
            self.registry, stream_id, events, expected_version, command_id, meta
        )
        encode = self.registry.encode
        rows = tuple((stream_id, expected_version + i, *encode(e)) for i, e in enumerate(events, 1))
        command = Command(command_id, command_digest, encoded_meta, rows)  # type: ignore[arg-type]
        return Pending(stream_id, expected_version, tuple(events), command)

    async def _flush(self, batch: Sequence[Pending]) -> list[Outcome | BaseException]:
        """Group commit's flush: a lone command alone (`tableside_append`); several in one
        transaction (`tableside_append_batch`, schema/012). A batch the database refuses
        whole for another reason than a command's own conflict is retried one command at a
        time, so no command's fault sinks another."""
        assert self._pg is not None
        if len(batch) == 1:
            return [await self._pg.append(batch[0].command)]
        try:
            return list(await self._pg.append_batch([p.command for p in batch]))
        except LOST:
            raise  # the database is away (retried already): every command meets it, at once
        except asyncpg.PostgresError:
            return [await self._append_alone(p) for p in batch]

    async def _append_alone(self, pending: Pending) -> Outcome | BaseException:
        assert self._pg is not None
        try:
            return await self._pg.append(pending.command)
        except Exception as exc:  # this command's own fault, answered to it alone
            return exc

    def _stored(self, pending: Pending, outcome: Outcome) -> AppendResult:
        rows = pending.command.rows
        return AppendResult(
            stream_id=pending.stream_id,
            first_version=pending.expected_version + 1,
            last_version=pending.expected_version + len(rows),
            positions=outcome.positions,
            payloads=tuple((name, payload) for _, _, name, payload in rows),
        )

    async def _answer(self, pending: Pending, outcome: Outcome) -> AppendResult:
        """The caller's result (or exception) for a command that stored nothing."""
        stream_id, expected = pending.stream_id, pending.expected_version
        if outcome.kind == CONFLICT:
            current = await self.current_version_async(stream_id)
            raise VersionConflict(stream_id, expected, current)
        if outcome.kind == REUSED:
            raise CommandReused(pending.command.command_id)
        assert self._pg is not None and outcome.kind == REPLAYED
        records = await self._pg.command_records(pending.command.command_id)
        return result_from(records, replayed=True)

    # --- in memory (the library's POPO recorder) ---------------------------------------

    def _save_memory(self, pending: Pending) -> Outcome:
        """One command through the library's Application (its mapper, its recorder)."""
        assert self._memory is not None
        envelopes = (
            Envelope(pending.stream_id, pending.expected_version + i, e)
            for i, e in enumerate(pending.events, 1)
        )
        command = pending.command
        try:
            recordings = self._memory.save(
                *envelopes,
                command_id=command.command_id,
                meta=command.meta,
                command_digest=command.digest,
            )
        except IntegrityError:
            return Outcome(CONFLICT)
        except CommandReused:
            return Outcome(REUSED)
        if not recordings:  # the recorder found this command_id already stored
            return Outcome(REPLAYED)
        return Outcome(STORED, tuple(r.notification.id for r in recordings))

    def _answer_memory(self, pending: Pending, outcome: Outcome) -> AppendResult:
        stream_id, expected = pending.stream_id, pending.expected_version
        if outcome.kind == STORED:
            return self._stored(pending, outcome)
        if outcome.kind == CONFLICT:
            raise VersionConflict(stream_id, expected, self.current_version(stream_id))
        if outcome.kind == REUSED:
            raise CommandReused(pending.command.command_id)
        return result_from(self._mem().command_records(pending.command.command_id), replayed=True)

    def _mem(self) -> MemoryEventRecorder:
        assert self._memory is not None
        recorder = self._memory.recorder
        assert isinstance(recorder, MemoryEventRecorder)
        return recorder

    # --- reads --------------------------------------------------------------------------

    def read(self, stream_id: UUID, after_version: int = 0) -> list[StoredEvent]:
        """One stream's events after `after_version`, in version order."""
        if self._pg is None:
            return [self.decode(r) for r in self._mem().stream_records(stream_id, after_version)]
        return self._sync(self.read_async, stream_id, after_version)

    async def read_async(self, stream_id: UUID, after_version: int = 0) -> list[StoredEvent]:
        """`read` on the home loop."""
        if self._pg is None:
            return self.read(stream_id, after_version)
        assert self._home is not None
        records = await self._home.visit(self._pg.stream_records, stream_id, after_version)
        return [self.decode(r) for r in records]

    def read_all(self, after_position: int = 0, limit: int = 1000) -> list[StoredEvent]:
        """Up to `limit` events after a global position, in the gapless global order."""
        return [self.decode(r) for r in self.read_raw(after_position, limit)]

    def read_raw(self, after_position: int = 0, limit: int = 1000) -> list[RawRecord]:
        """Like read_all, undecoded (for verification and export)."""
        if limit < 1:
            raise ValueError("limit must be at least 1")
        if self._pg is None:
            return self._mem().records_after(after_position, limit)
        return self._sync(self._pg.records_after, after_position, limit)

    def last_position(self) -> int:
        """The newest global position; 0 for an empty store (a snapshot's `as of`)."""
        if self._pg is None:
            return self._mem().max_notification_id() or 0
        return self._sync(self._pg.head)

    def current_version(self, stream_id: UUID) -> int:
        """The stream's last version; 0 for a stream with no events."""
        if self._pg is None:
            return self._mem().stream_version(stream_id)
        return self._sync(self._pg.stream_version, stream_id)

    async def current_version_async(self, stream_id: UUID) -> int:
        """`current_version` on the home loop."""
        if self._pg is None:
            return self._mem().stream_version(stream_id)
        assert self._home is not None
        return await self._home.visit(self._pg.stream_version, stream_id)

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

    async def check_connections(self) -> None:
        """Drop the pool's connections (after a database restart), so no request meets a
        dead one; the pool opens new ones in their place."""
        if self._pg is not None:
            await self._pg.pool.expire_connections()

    def close(self) -> None:
        """Close the connection pool (and the loop of its own, if it has one)."""
        if self._pg is None:
            self._memory.close()  # type: ignore[union-attr]
            return
        assert self._home is not None
        try:
            self._sync(self.aclose)
        finally:
            self._home.close()

    async def aclose(self, seconds: float = 10.0) -> None:
        """Close the pool on the home loop: once its connections are back, or past
        `seconds`, at once (a transaction still open is rolled back by the server)."""
        if self._pg is None:
            return
        try:
            await asyncio.wait_for(self._pg.pool.close(), seconds)
        except TimeoutError:
            self._pg.pool.terminate()

    def __enter__(self) -> EventStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


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
