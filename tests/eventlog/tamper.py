"""What an attacker with the owner's (or a superuser's) password does to stored events.

Every helper runs with triggers off (`session_replication_role = replica`), and the
`relink_*` helpers recompute the chains afterwards, as a careful attacker would, so that
a test shows which check still finds the edit.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable

import psycopg

ZERO = "decode(repeat('00', 32), 'hex')"


def attack(url: str, *statements: str) -> None:
    """Run statements as the superuser with every trigger off, in one transaction."""
    with psycopg.connect(url) as conn:
        conn.execute("SET session_replication_role = replica")
        for statement in statements:
            conn.execute(statement.encode())


def relink_stream(stream: uuid.UUID) -> str:
    """Recompute one stream's prev_hash and hash in version order."""
    return f"""
DO $$
DECLARE prev bytea := {ZERO}; r record; h bytea;
BEGIN
    FOR r IN SELECT * FROM stored_events WHERE originator_id = '{stream}'
             ORDER BY originator_version LOOP
        h := tableside_link_hash(prev, r.originator_id, r.originator_version, r.recorded_at,
                                 r.command_id, r.topic, r.state, r.meta);
        UPDATE stored_events SET prev_hash = prev, hash = h
        WHERE originator_id = r.originator_id AND originator_version = r.originator_version;
        prev := h;
    END LOOP;
END $$"""


def relink_global() -> str:
    """Recompute every global_hash in global order."""
    return f"""
DO $$
DECLARE prev bytea := {ZERO}; r record;
BEGIN
    FOR r IN SELECT * FROM stored_events ORDER BY notification_id LOOP
        prev := tableside_global_hash(prev, r.notification_id, r.originator_id,
                                      r.originator_version, r.hash);
        UPDATE stored_events SET global_hash = prev WHERE notification_id = r.notification_id;
    END LOOP;
END $$"""


def move_positions(changes: Iterable[tuple[int, int]]) -> list[str]:
    """Renumber positions (old → new) without tripping the unique index mid-way."""
    changes = list(changes)
    park = [
        f"UPDATE stored_events SET notification_id = {-new} WHERE notification_id = {old}"
        for old, new in changes
    ]
    back = [
        f"UPDATE stored_events SET notification_id = {new} WHERE notification_id = {-new}"
        for _, new in changes
    ]
    return [*park, *back]


def flip_winner(stream: str) -> str:
    """Swap a korona match's winner in its `GameEnded` and `MatchEnded` events (the links are
    then stale: re-link them with `relink_stream` and `relink_global`)."""
    swap = "replace(replace(replace(convert_from(state, 'UTF8'),"
    swap += """ '"winner":"A"', '"winner":"X"'), '"winner":"B"', '"winner":"A"'),"""
    swap += """ '"winner":"X"', '"winner":"B"')"""
    return (
        f"UPDATE stored_events SET state = convert_to({swap}, 'UTF8')"
        f" WHERE originator_id = '{stream}' AND topic IN ('GameEnded', 'MatchEnded')"
    )
