"""Competition documents on the live feed's `competition:<id>` channel.

The standings consumer of the tail publishes each document it wrote (`publish_competition`);
a socket following a competition gets the current one after its snapshot or its replay
(`competition_now`). A document is whole state, not a delta: it is published at the
`DOCUMENT` position, which the socket pump forwards without ordering it among the match
deltas, and a face keeps the one with the highest `version`.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

import asyncpg
import msgspec

from tableside.app.audience import Audience
from tableside.competitions.docs import competition_message

DOCUMENT = -1  # the audience position of a whole document (see live._pump)
_DOC = "SELECT doc::text FROM competition_view WHERE competition_id = $1"
_ROWS = "SELECT row::text FROM competition_standings WHERE competition_id = $1 ORDER BY rank"
_encoder = msgspec.json.Encoder()


def publish_competition(audience: Audience, message: dict[str, Any]) -> None:
    """Queue a competition's changed documents for its channel (returns at once)."""
    channel = f"competition:{message['competition_id']}"
    audience.publish(DOCUMENT, _encoder.encode(message).decode(), [channel])


async def competition_now(pool: asyncpg.Pool, competition: str) -> bytes | None:
    """The competition's current documents as one feed message (None if there are none)."""
    try:
        comp_id = UUID(competition)
    except ValueError:
        return None  # a label of no competition stream (e.g. a walk-up's)
    async with pool.acquire() as conn, conn.transaction(readonly=True):
        doc = await conn.fetchval(_DOC, comp_id)
        rows = await conn.fetch(_ROWS, comp_id)
    if doc is None:
        return None
    standing = [msgspec.Raw(r[0].encode()) for r in rows]
    return _encoder.encode(competition_message(comp_id, msgspec.json.decode(doc), standing))
