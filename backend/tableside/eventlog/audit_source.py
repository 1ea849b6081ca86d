"""Stream stored rows straight from PostgreSQL for verification, without the store's pool."""

from __future__ import annotations

from collections.abc import Iterator
from uuid import UUID

import psycopg
from psycopg.rows import class_row

from tableside.eventlog.records import RAW_COLUMNS, RawRecord


def records_from_database(url: str, stream_id: UUID | None = None) -> Iterator[RawRecord]:
    """Every row in global order (or one stream's), fetched in batches by a server cursor."""
    where, params = ("WHERE originator_id = %s", (stream_id,)) if stream_id else ("", ())
    query = f"SELECT {RAW_COLUMNS} FROM stored_events {where} ORDER BY notification_id"
    with psycopg.connect(url) as conn, conn.transaction():
        # One snapshot for the whole walk (REPEATABLE READ), so appends during it don't matter.
        conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        with conn.cursor("audit", row_factory=class_row(RawRecord)) as cur:
            cur.itersize = 2000
            cur.execute(query, params)
            yield from cur
