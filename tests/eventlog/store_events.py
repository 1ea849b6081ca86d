"""Event types used only by the store's tests."""

from __future__ import annotations

import msgspec


class PuckPocketed(msgspec.Struct, frozen=True, tag="test.PuckPocketed"):
    """A test event with a couple of fields."""

    player: str
    puck: int


class GameClosed(msgspec.Struct, frozen=True, tag="test.GameClosed"):
    """A second test event type."""

    winner: str


class NotRegistered(msgspec.Struct, frozen=True, tag="test.NotRegistered"):
    """Never registered: appending it must fail before anything is written."""

    note: str


TEST_EVENT_TYPES = (PuckPocketed, GameClosed)


def three_by_three(app_url: str) -> list:
    """3 streams × 3 versions appended round-robin as the server's role, so positions are
    v1: 1 2 3, v2: 4 5 6, v3: 7 8 9 (the tamper tests' store); the stream ids."""
    import uuid

    from tableside.eventlog import EventRegistry, EventStore

    ids = [uuid.uuid4() for _ in range(3)]
    with EventStore.connect(EventRegistry(*TEST_EVENT_TYPES), app_url) as store:
        for version in range(3):
            for stream in ids:
                store.append(
                    stream,
                    [PuckPocketed("Mari", version + 1)],
                    expected_version=version,
                    command_id=uuid.uuid4(),
                    meta={"device_id": "tab-1"},
                )
    return ids


def stored_of(url: str, topic: str) -> list[dict]:
    """The stored events of one type, decoded, in global order (any stream)."""
    import json

    import psycopg

    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT convert_from(state, 'UTF8') FROM stored_events WHERE topic = %s"
            " ORDER BY notification_id",
            (topic,),
        ).fetchall()
    return [json.loads(r[0]) for r in rows]
