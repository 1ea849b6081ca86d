"""The event store: immutable, hash-chained events in PostgreSQL (or in memory for tests).

Interface (others build on it; keep it stable):

    from tableside.eventlog import EventRegistry, EventStore, VersionConflict

    registry = EventRegistry(*EVENT_TYPES)          # frozen msgspec Structs with a str tag
    registry.register(OtherEvent)                   # stable name = the tag, never the module
    store = EventStore.connect(registry, database_url, pool_size=5)   # sync callers, no loop
    store = await EventStore.open(registry, database_url, pool_size=5)  # on the server's loop
    store = EventStore.in_memory(registry)          # library's POPO recorder, same contract

    store.append(stream_id: UUID, events: Sequence[Struct], *, expected_version: int,
                 command_id: UUID, meta: Mapping[str, str] | None = None,
                 command_digest: bytes | None = None) -> AppendResult
        AppendResult(stream_id, first_version, last_version, positions: tuple[int, ...],
                     replayed: bool). A command_id already stored → nothing is written and
        the original result comes back with replayed=True — unless it was stored with
        another `command_digest` (`tableside.eventlog.digest.command_digest`): then
        CommandReused(.command_id) is raised and nothing is written. A stale expected_version raises
        VersionConflict(.stream_id, .expected_version, .current_version). Bad input (no
        events, unregistered type, meta not str→str) raises before anything is written.
        Versions start at 1; expected_version=0 means "new stream".
    store.read(stream_id, after_version=0) -> list[StoredEvent]        # version order
    store.read_all(after_position=0, limit=1000) -> list[StoredEvent]  # global order
    store.read_raw(after_position=0, limit=1000) -> list[RawRecord]    # undecoded rows
    store.current_version(stream_id) -> int
    store.last_position() -> int                                       # 0 when empty
    store.close()                                   # `await store.aclose()` on the loop
    await store.append_async(...), read_async(...), current_version_async(...)  # on its loop

On PostgreSQL the store is asyncpg on its home loop (`eventlog.home`, decision 0217): the
server's loop for a store `open`ed there, a thread of its own for one `connect`ed; a sync call
from a worker thread waits (bounded) for its coroutine there, one from the home loop itself is
refused. Busy or away (pool, lock or statement timeout, lost connection): one of STORE_AWAY.

    StoredEvent: stream_id, version, position, type (stable name), event (decoded Struct),
    recorded_at (database time), command_id, meta (dict: e.g. recorder, role, device_id,
    device_time), prev_hash, hash. An unregistered type on read raises UnknownEventType
    naming it.

Appends that arrive while another is in flight are committed together (group commit,
`eventlog.group_commit`, schema/012; a lone append goes at once, alone): each keeps every
promise above, a conflict of one never sinks another.

Global positions are dense (1, 2, 3, … with no holes) and commit in order: the append
functions lock the table for each insert, and the trigger assigns the position. Every
insert sends `NOTIFY stored_events` (channel = NOTIFY_CHANNEL, no payload) on commit; a
read-side listener wakes and calls read_all(after_position=its checkpoint).

Hash chains: computed by the database trigger (schema/003 per stream, schema/006 store-wide
`global_hash`) and recomputed independently by `tableside.eventlog.verify.verify(records)` →
ChainReport(.broken: BrokenLink | None, .heads); `tableside.eventlog.chain` documents both byte
layouts. Signed checkpoints of the store-wide head: `tableside.eventlog.checkpoints` (keys,
signing, checking) and `tableside.eventlog.checkpoint_db` (take, read, seal an export);
sealed JSON Lines exports: `tableside.eventlog.jsonl`. What each check finds and cannot find:
docs/threat-model.md.
"""

from tableside.eventlog.eventstore import EventStore
from tableside.eventlog.recorder import EVENTS_TABLE, STORE_AWAY
from tableside.eventlog.records import (
    AppendResult,
    CommandReused,
    RawRecord,
    StoredEvent,
    StoreNotReady,
    VersionConflict,
)
from tableside.eventlog.registry import EventRegistry, UnknownEventType

NOTIFY_CHANNEL = EVENTS_TABLE

__all__ = [
    "NOTIFY_CHANNEL",
    "STORE_AWAY",
    "AppendResult",
    "CommandReused",
    "EventRegistry",
    "EventStore",
    "RawRecord",
    "StoreNotReady",
    "StoredEvent",
    "UnknownEventType",
    "VersionConflict",
]
