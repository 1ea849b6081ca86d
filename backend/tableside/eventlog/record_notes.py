"""What the record says of itself, in words (#50): every dispute accepted on it and every key
declared lost, as `audit verify` prints them beneath its verdict and the audit face shows
them. An acceptance or a loss statement whose signature does not hold says so: it accepts
nothing (`standing.acceptance_holds`, `rotation.loss_holds`).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import msgspec

from tableside.eventlog.key_identity import fingerprint
from tableside.eventlog.rotation import KeyLost, loss_holds
from tableside.eventlog.standing import RECORD_STREAM, DisputeAccepted, acceptance_holds

_FACTS = (
    "SELECT topic, state FROM stored_events WHERE originator_id = %s"
    " AND topic IN ('RecordDisputeAccepted', 'KeyLost') ORDER BY originator_version"
)


def accepted_line(event: DisputeAccepted, *, holds: bool) -> str:
    """ "accepted dispute at position N by X: reason", and whether its signature holds."""
    who = event.operator or event.accepted_by
    line = f"accepted dispute at position {event.head_position} by {who}: {event.reason}"
    line += f" (at {event.at}, key {fingerprint(event.public_key)}"
    return line + (")" if holds else "; its signature does NOT hold: it accepts nothing)")


def lost_line(event: KeyLost) -> str:
    """ "key F declared lost at T by X; key G signs since"."""
    line = f"key {fingerprint(event.lost_key)} declared lost at {event.at} by {event.operator};"
    line += f" key {fingerprint(event.new_key)} signs since"
    return line + ("" if loss_holds(event) else " (its signature does NOT hold)")


def notes_of(rows: list[Any], trusted: bytes | None) -> list[str]:
    """The lines for the record stream's rows (topic, state)."""
    now, found = datetime.now(UTC), []
    for topic, state in rows:
        if topic == "KeyLost":
            found.append(lost_line(msgspec.json.decode(bytes(state), type=KeyLost)))
            continue
        event = msgspec.json.decode(bytes(state), type=DisputeAccepted)
        found.append(accepted_line(event, holds=acceptance_holds(event, trusted, now)))
    return found


def notes(conn: Any, trusted: bytes | None) -> list[str]:
    """Every acceptance and loss the store records, oldest first (psycopg)."""
    return notes_of(conn.execute(_FACTS, (RECORD_STREAM,)).fetchall(), trusted)


_ACCEPTED = (
    "SELECT state FROM stored_events WHERE originator_id = $1"
    " AND topic = 'RecordDisputeAccepted' ORDER BY originator_version"
)


async def touching(conn: Any, trusted: bytes | None, first: int) -> list[DisputeAccepted]:
    """The accepted disputes that touch a record whose first event is at `first` (asyncpg):
    those that hold and accepted a head at or past it, so that what the record held then
    was accepted as it stood, not proven."""
    rows = await conn.fetch(_ACCEPTED, RECORD_STREAM)
    now = datetime.now(UTC)
    events = [msgspec.json.decode(bytes(r[0]), type=DisputeAccepted) for r in rows]
    return [e for e in events if acceptance_holds(e, trusted, now) and e.head_position >= first]


def as_dict(event: DisputeAccepted) -> dict[str, Any]:
    """An accepted dispute as the audit API names it (the face words its `code`)."""
    by = event.operator or event.accepted_by
    return {
        "position": event.head_position,
        "by": by,
        "code": event.code,
        "reason": event.reason,
        "at": event.at,
    }
