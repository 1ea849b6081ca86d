"""The database bounds what one append may carry (issue 46: the app role's `tableside_append`
took a 50 MiB state), with the API's limits (`tableside.eventlog.limits`, schema 046)."""

from __future__ import annotations

import re
import uuid

import psycopg
import pytest
from tableside.db.migrations import SCHEMA_DIR
from tableside.eventlog import limits
from tableside.web.guards import FILE_LIMIT

MIB = 1024 * 1024
_ONE = "ARRAY[ROW(%s, 1, %s, %s)]::stored_event_uuid[]"


def _append(conn: psycopg.Connection, state: bytes, topic: str = "test.Big", meta: str = "{}"):
    return conn.execute(
        f"SELECT * FROM tableside_append(%s, NULL, %s, {_ONE})",
        (uuid.uuid4(), meta, uuid.uuid4(), topic, state),
    ).fetchall()


def _stored(url: str) -> int:
    with psycopg.connect(url) as conn:
        return conn.execute("SELECT count(*) FROM stored_events").fetchone()[0]


def test_the_migration_holds_the_apis_numbers() -> None:
    sql = (SCHEMA_DIR / "046_append_bounds.sql").read_text()
    checks = {int(n) for n in re.findall(r"octet_length\(NEW\.\w+\) > (\d+)", sql)}
    assert checks == {limits.EVENT_STATE_BYTES, limits.EVENT_META_BYTES, limits.EVENT_TYPE_BYTES}
    assert sql.count(f"ERRCODE = '{limits.REFUSED}'") == 3
    assert limits.EVENT_STATE_BYTES == 2 * FILE_LIMIT  # the largest body the API takes, twice


@pytest.mark.parametrize(
    ("state", "topic", "meta"),
    [
        (b'"' + b"x" * (5 * MIB) + b'"', "test.Big", "{}"),
        (b"{}", "test." + "T" * 300, "{}"),
        (b"{}", "test.Big", '{"device_id":"' + "d" * (20 * 1024) + '"}'),
    ],
    ids=["state", "type", "meta"],
)
def test_the_app_role_cannot_append_past_the_bounds(app_url: str, state, topic, meta) -> None:
    with psycopg.connect(app_url) as conn, pytest.raises(psycopg.Error) as refused:
        _append(conn, state, topic, meta)
    assert refused.value.sqlstate == limits.REFUSED, refused.value
    assert _stored(app_url) == 0


def test_the_batch_append_refuses_it_whole_not_as_a_conflict(app_url: str) -> None:
    big = b'"' + b"x" * (5 * MIB) + b'"'
    with psycopg.connect(app_url) as conn, pytest.raises(psycopg.Error) as refused:
        conn.execute(
            "SELECT * FROM tableside_append_batch(%s, %s, %s, %s,"
            " ARRAY[ROW(%s, 1, 'test.Big', %s)]::stored_event_uuid[])",
            ([uuid.uuid4()], [b"\x00" * 32], ["{}"], [1], uuid.uuid4(), big),
        ).fetchall()
    assert refused.value.sqlstate == limits.REFUSED
    assert _stored(app_url) == 0


def test_a_large_event_within_the_bounds_is_stored(app_url: str) -> None:
    with psycopg.connect(app_url) as conn:
        assert len(_append(conn, b'"' + b"x" * (3 * MIB) + b'"')) == 1
    assert _stored(app_url) == 1


def test_the_migration_holds_the_apis_bound_of_one_append() -> None:
    sql = (SCHEMA_DIR / "014_append_total.sql").read_text()
    assert {int(n) for n in re.findall(r"total > (\d+)", sql)} == {limits.APPEND_STATE_BYTES}
    assert f"ERRCODE = '{limits.REFUSED}'" in sql


def test_an_append_of_many_events_past_the_bound_in_all_is_refused(app_url: str) -> None:
    """#50: 25 events of 4 MiB each, 100 MiB, were taken in one append; each event is within
    its own bound, the append is not."""
    stream, each = uuid.uuid4(), b'"' + b"x" * (4 * MIB - 16) + b'"'
    rows = ", ".join(f"ROW(%s, {v}, 'test.Big', %s)" for v in range(1, 4))
    with psycopg.connect(app_url) as conn, pytest.raises(psycopg.Error) as refused:
        conn.execute(
            f"SELECT * FROM tableside_append(%s, NULL, '{{}}', ARRAY[{rows}]::stored_event_uuid[])",
            (uuid.uuid4(), *[x for _ in range(3) for x in (stream, each)]),
        )
    assert refused.value.sqlstate == limits.REFUSED, refused.value
    assert "in one append" in str(refused.value)
    assert _stored(app_url) == 0


def test_an_append_within_the_bound_in_all_is_stored(app_url: str) -> None:
    stream, each = uuid.uuid4(), b'"' + b"x" * (3 * MIB) + b'"'
    rows = ", ".join(f"ROW(%s, {v}, 'test.Big', %s)" for v in range(1, 3))
    with psycopg.connect(app_url) as conn:
        conn.execute(
            f"SELECT * FROM tableside_append(%s, NULL, '{{}}', ARRAY[{rows}]::stored_event_uuid[])",
            (uuid.uuid4(), *[x for _ in range(2) for x in (stream, each)]),
        )
    assert _stored(app_url) == 2
