"""The process's one LISTEN connection: wakes the tail loop, hands other channels' payloads on."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping

import asyncpg

from tableside.eventlog import NOTIFY_CHANNEL

log = logging.getLogger(__name__)


async def listen(
    url: str, on_event: Callable[[], None], on_payload: Mapping[str, Callable[[str], None]]
) -> None:
    """Keep one LISTEN connection open (reconnecting after a loss) until cancelled.

    `on_event` hears the store's NOTIFY; `on_payload` maps other channels (the staff's token
    revocations, say) to what is called with each payload.
    """
    while True:
        try:
            conn = await asyncpg.connect(url)
        except (OSError, asyncpg.PostgresError) as exc:
            log.warning("LISTEN connection failed (%s); retrying", exc)
            await asyncio.sleep(1)
            continue
        lost = asyncio.Event()
        conn.add_termination_listener(lambda _, lost=lost: lost.set())
        try:
            await conn.add_listener(NOTIFY_CHANNEL, lambda *_: on_event())
            for channel, call in on_payload.items():
                await conn.add_listener(channel, lambda *args, call=call: call(args[3]))
            on_event()  # anything stored while we were not listening
            await lost.wait()
        finally:
            await _close(conn)


async def _close(conn: asyncpg.Connection) -> None:
    try:
        await asyncio.wait_for(conn.close(), 2)
    except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError):
        conn.terminate()
