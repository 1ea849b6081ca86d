"""The library's datastore, pool, composite type and retry policy are used as they are. The
insert goes through `tableside_append` (schema/005, 010), the library's db-function shape
extended with the EXCLUSIVE table lock (gapless global order, as the library's own insert
path does), the command_id check under that lock (a retry with the same command digest
stores nothing; another digest is refused: CommandReused) and `NOTIFY stored_events`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from eventsourcing.persistence import (
    DatabaseError,
    InterfaceError,
    OperationalError,
    ProgrammingError,
)
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore
from eventsourcing.utils import retry
from psycopg.rows import class_row
from psycopg.sql import SQL

from tableside.eventlog.records import RAW_COLUMNS, CommandReused, RawRecord, StoreNotReady

EVENTS_TABLE = "stored_events"

_APPEND = SQL("SELECT * FROM tableside_append(%s, %s, %s, %s::stored_event_uuid[])")
_BATCH = SQL(
    "SELECT command_no, outcome, positions FROM tableside_append_batch("
    "%s::uuid[], %s::bytea[], %s::text[], %s::integer[], %s::stored_event_uuid[])"
)
_REUSED = "TS409"  # tableside_append: this command_id holds a different command
_SELECT = SQL(f"SELECT {RAW_COLUMNS} FROM stored_events ")  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class CommandRows:
    """One command's part of a batch: its id, digest, canonical meta and the library's
    stored events (its mapper's output)."""

    command_id: UUID
    command_digest: bytes | None
    meta: str
    stored_events: Sequence[Any]


class PostgresEventRecorder(PostgresApplicationRecorder):
    """Inserts with the append's command_id and meta; the trigger adds the chain."""

    def __init__(self, datastore: PostgresDatastore) -> None:
        super().__init__(datastore, events_table_name=EVENTS_TABLE)
        if self.stored_event_type_name not in datastore.psycopg_python_types:
            datastore.close()  # nobody else will: the Application is never finished
            raise StoreNotReady("the database has no stored_events schema: run `tableside migrate`")

    # Retrying after a lost connection is safe: a command that did commit is found by its
    # command_id and answered with no rows (a replay), never stored twice.
    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def insert_events(
        self,
        stored_events: Any,
        *,
        command_id: UUID | None = None,
        meta: str = "{}",
        command_digest: bytes | None = None,
        **_: Any,
    ) -> list[int]:
        """Insert one command's events; [] when that command_id is already stored (a retry);
        CommandReused when it is stored with another command digest."""
        if command_id is None:
            raise ProgrammingError("every append needs a command_id")
        rows = [
            self.construct_pg_stored_event(e.originator_id, e.originator_version, e.topic, e.state)
            for e in stored_events
        ]
        try:
            with self.datastore.get_connection() as conn:
                params = (command_id, command_digest, meta, rows)
                cur = conn.execute(_APPEND, params, prepare=True)
                return [row["tableside_append"] for row in cur.fetchall()]
        except DatabaseError as exc:
            if getattr(exc.__cause__, "sqlstate", None) == _REUSED:
                raise CommandReused(command_id) from None
            raise

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def insert_commands(self, commands: Sequence[CommandRows]) -> list[tuple[str, list[int]]]:
        """Insert several commands' events in one transaction (`tableside_append_batch`,
        schema/012): per command, in order, its outcome — stored (with its positions),
        replayed, reused or conflict — each decided as `insert_events` would decide it alone.
        Retrying after a lost connection is safe for the same reason as there."""
        rows = [
            self.construct_pg_stored_event(e.originator_id, e.originator_version, e.topic, e.state)
            for command in commands
            for e in command.stored_events
        ]
        params = (
            [c.command_id for c in commands],
            [c.command_digest for c in commands],
            [c.meta for c in commands],
            [len(c.stored_events) for c in commands],
            rows,
        )
        with self.datastore.get_connection() as conn:
            cur = conn.execute(_BATCH, params, prepare=True)
            found = {row["command_no"]: row for row in cur.fetchall()}
        return [
            (found[i]["outcome"], list(found[i]["positions"] or ()))
            for i in range(1, len(commands) + 1)
        ]

    def stream_records(self, stream_id: UUID, after_version: int = 0) -> list[RawRecord]:
        """Rows of one stream after a version, in version order."""
        query = _SELECT + SQL(
            "WHERE originator_id = %s AND originator_version > %s ORDER BY originator_version"
        )
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
        query = SQL(
            "SELECT coalesce(max(originator_version), 0) AS v FROM stored_events"
            " WHERE originator_id = %s"
        )
        with self.datastore.get_connection() as conn:
            row = conn.execute(query, (stream_id,)).fetchone()
        return int(row["v"]) if row else 0

    def _fetch(self, query: Any, params: tuple[Any, ...]) -> list[RawRecord]:
        with self.datastore.get_connection() as conn:
            cur = conn.cursor(row_factory=class_row(RawRecord))
            return cur.execute(query, params, prepare=True).fetchall()
