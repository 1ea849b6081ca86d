"""The library's PostgreSQL application recorder, carrying command_id and meta per append.

Everything else — the EXCLUSIVE table lock that keeps the global order gapless, the
NOTIFY on the `stored_events` channel, the unnest insert through the composite type,
retries — is the library's own code path.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from eventsourcing.persistence import ProgrammingError, StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore
from psycopg.rows import class_row
from psycopg.sql import SQL

from tableside.store.records import RAW_COLUMNS, RawRecord, StoreNotReady

EVENTS_TABLE = "stored_events"

_SELECT = SQL(f"SELECT {RAW_COLUMNS} FROM stored_events ")  # type: ignore[arg-type]


class PostgresEventRecorder(PostgresApplicationRecorder):
    """Inserts with the append's command_id and meta; the trigger adds the chain."""

    def __init__(self, datastore: PostgresDatastore) -> None:
        super().__init__(datastore, events_table_name=EVENTS_TABLE)
        if self.stored_event_type_name not in datastore.psycopg_python_types:
            raise StoreNotReady("the database has no stored_events schema: run `tableside migrate`")
        self.insert_events_statement = SQL(
            "INSERT INTO stored_events (originator_id, originator_version, topic, state,"
            " command_id, meta) SELECT e.originator_id, e.originator_version, e.topic,"
            " e.state, %s, %s FROM unnest(%s::stored_event_uuid[]) AS e"
            " RETURNING notification_id"
        )

    def _insert_stored_events(
        self, curs: Any, stored_events: Any, *, command_id: UUID | None = None,
        meta: str = "{}", **_: Any,
    ) -> None:
        if command_id is None:
            raise ProgrammingError("every append needs a command_id")
        self._lock_table(curs)
        self._notify_channel(curs)
        rows = [self._composite(e) for e in stored_events]
        curs.execute(self.insert_events_statement, (command_id, meta, rows), prepare=True)

    def _composite(self, e: StoredEvent) -> Any:
        return self.construct_pg_stored_event(
            e.originator_id, e.originator_version, e.topic, e.state
        )

    def stream_records(self, stream_id: UUID, after_version: int = 0) -> list[RawRecord]:
        """Rows of one stream after a version, in version order."""
        query = _SELECT + SQL("WHERE originator_id = %s AND originator_version > %s"
                              " ORDER BY originator_version")
        return self._fetch(query, (stream_id, after_version))

    def records_after(self, position: int, limit: int) -> list[RawRecord]:
        """Rows after a global position, in global order."""
        query = _SELECT + SQL("WHERE notification_id > %s ORDER BY notification_id LIMIT %s")
        return self._fetch(query, (position, limit))

    def command_records(self, command_id: UUID) -> list[RawRecord]:
        """Rows a command stored, if it was stored."""
        return self._fetch(_SELECT + SQL("WHERE command_id = %s"), (command_id,))

    def stream_version(self, stream_id: UUID) -> int:
        """The stream's last version, 0 if it has none."""
        query = SQL("SELECT coalesce(max(originator_version), 0) AS v FROM stored_events"
                    " WHERE originator_id = %s")
        with self.datastore.get_connection() as conn:
            row = conn.execute(query, (stream_id,)).fetchone()
        return int(row["v"]) if row else 0

    def _fetch(self, query: SQL | Any, params: tuple[Any, ...]) -> list[RawRecord]:
        with self.datastore.get_connection() as conn:
            cur = conn.cursor(row_factory=class_row(RawRecord))
            return cur.execute(query, params, prepare=True).fetchall()
