"""The row a psycopg query always returns (an aggregate, `SHOW`, a `pg_*()` call): psycopg
types `fetchone()` as maybe None; here no row is a bug, said as one."""

from __future__ import annotations

from typing import Any

import psycopg


def one(cursor: psycopg.Cursor[Any]) -> Any:
    """The first row of `cursor`; LookupError when the query returned none."""
    row = cursor.fetchone()
    if row is None:
        raise LookupError("the query returned no row")
    return row
