"""The floor of the judge's command under the fixed choices: the bare endpoint's Litestar
handler, but its one write is the store's append (`append_async`: asyncpg on the event loop
into `tableside_append`, group commit; decision 0217) instead of an asyncpg INSERT. No auth,
no rules, no read models, no live feed: what no judge command can be faster than. An earlier
checkout's store (`command_path.py --before DIR --floor`) with no `EventStore.open` is
measured as it was built: its sync append in a worker thread.

    DATABASE_URL=... TABLESIDE_APP_URL=... uvicorn command_floor:app --port P   (cwd: bench/)
"""

from __future__ import annotations

import os
import uuid
from typing import Any

import anyio.to_thread
import msgspec
from command_bare import Body
from litestar import Litestar, post
from tableside.eventlog import EventRegistry, EventStore


class BenchStroke(msgspec.Struct, frozen=True, tag="bench.Stroke"):
    """The command's body, stored as one event."""

    command: dict[str, Any]


_store: EventStore | None = None


_ON_LOOP = hasattr(EventStore, "open")  # this checkout's store (else an earlier one's)


async def _open() -> None:
    global _store
    registry, url = EventRegistry(BenchStroke), os.environ["DATABASE_URL"]
    if _ON_LOOP:
        _store = await EventStore.open(registry, url, 10)
    else:
        _store = EventStore.connect(registry, url, 10)


async def _close() -> None:
    if _store is not None:
        await (_store.aclose() if _ON_LOOP else anyio.to_thread.run_sync(_store.close))


def _append(match_id: uuid.UUID, data: Body) -> int:
    result = _store.append(  # type: ignore[union-attr]
        match_id,
        [BenchStroke(data.command)],
        expected_version=data.expected_version,
        command_id=data.command_id,
        meta={"recorder": "bench"},
    )
    return result.last_version


@post("/api/matches/{match_id:uuid}/commands", status_code=201)
async def command(match_id: uuid.UUID, data: Body) -> dict[str, Any]:
    """Validate, append through the store (on the loop; an earlier store in a worker
    thread), answer."""
    if _ON_LOOP:
        result = await _store.append_async(  # type: ignore[union-attr]
            match_id,
            [BenchStroke(data.command)],
            expected_version=data.expected_version,
            command_id=data.command_id,
            meta={"recorder": "bench"},
        )
        version = result.last_version
    else:
        version = await anyio.to_thread.run_sync(_append, match_id, data)
    return {"last_version": version, "positions": [version], "events": []}


app = Litestar([command], on_startup=[_open], on_shutdown=[_close])
