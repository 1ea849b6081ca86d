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

from tableside.competition.projection import current_message
from tableside.live.audience import Audience
from tableside.live.channels import DOCUMENT

_encoder = msgspec.json.Encoder()


def publish_competition(audience: Audience, message: dict[str, Any]) -> None:
    """Queue a competition's changed documents for its channel (returns at once)."""
    channel = f"competition:{message['competition_id']}"
    audience.publish(DOCUMENT, _encoder.encode(message), [channel])


async def competition_now(pool: asyncpg.Pool, competition: str) -> bytes | None:
    """The competition's current documents as one feed message (None if there are none)."""
    try:
        comp_id = UUID(competition)
    except ValueError:
        return None  # a label of no competition stream (e.g. a walk-up's)
    async with pool.acquire() as conn, conn.transaction(readonly=True):
        message = await current_message(conn, comp_id)
    return None if message is None else _encoder.encode(message)
