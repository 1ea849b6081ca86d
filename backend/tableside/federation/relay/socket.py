"""`/api/federation/live` (websocket): the hall's protocol for remote spectators — a snapshot
with its position, then every delta position-tagged, no gap, no duplicate; resume with `after`.

Query: `venue=<uuid>` (every event of the venue: its positions are dense, so a spectator sees
a gap at once), optionally `stream=<uuid>` (one match), optionally `after=<position>` (what
followed it instead of a snapshot: from this node's ring, or from the kept rows further back —
a spectator whose node died resumes on any other; more than MAX_GAP behind, a snapshot).
After the snapshot or the gap come the venue's notice (`{"kind":"venue","state":"online"` or
`"offline","since":…}`) and `caught_up`.
A client sends only `{"type":"ping"}` (answered `{"kind":"pong"}`).

Served below Litestar as the hall's `/live` is (live/connection.py, decision 0143), with the
hall's pieces: its socket, its fan-out and ring (`live/audience.py`), its cached snapshots
(`live/flights.py`), its direct writes and its detached sockets (`live/direct.py`,
`live/detached.py`). No Origin check: the feed is public and carries no secret.
Close codes: 4400 a bad query or a message that is not a ping, 4404 no such venue, 1013 this
node is full or the feed was not caught up in time (the reason says `retry in N s`), 4429 too
many sockets from one address, 4503 too far behind (reconnect with `after`), 1012 the node
stops (reconnect, to another node, with `after`).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any
from uuid import UUID

import anyio
from litestar.exceptions import HTTPException, WebSocketDisconnect

from tableside.federation.relay.admission import FULL, retry_reason
from tableside.federation.relay.feed import (
    VENUE,
    VenueFeed,
    gap,
    kept_head,
    snapshot,
    stream_channel,
)
from tableside.federation.relay.node import Relay
from tableside.live.audience import SLOW
from tableside.live.connection import LiveSocket
from tableside.live.detached import JUNK, JUNK_REASON, PING, PONG, detach, detachable
from tableside.live.direct import DirectWriter, writer_of
from tableside.live.feed import encode
from tableside.web.auth import no_token_in_url

RELAY_PATH = "/api/federation/live"
BAD = 4400
NO_VENUE = 4404
_PING_TEXT = PING.decode()
BOUND = 10.0  # seconds a socket waits on its feed's start, its snapshot or its ring
MAX_GAP = 10_000  # a resume further behind than this gets a snapshot, as the hall's does


class _Seat:
    """What a detached socket needs of its feed (the hall's `Context` shape, live/detached)."""

    __slots__ = ("addresses", "audience", "pool")

    def __init__(self, relay: Relay, feed: VenueFeed) -> None:
        self.audience, self.addresses, self.pool = feed.audience, relay.admission, relay.pool


def _query(socket: LiveSocket) -> tuple[UUID, UUID | None, int | None]:
    q = socket.query_params
    venue = UUID(q["venue"])
    stream = UUID(q["stream"]) if q.get("stream") else None
    after = int(q["after"]) if q.get("after") else None
    if after is not None and not 0 <= after <= 2**62:
        raise ValueError(after)
    return venue, stream, after


async def relay_socket(app: Any, scope: dict, receive: Any, send: Any) -> None:
    """One remote spectator: admitted by this node, caught up, then fed by the fan-out."""
    socket = LiveSocket(app, scope, receive, send)
    try:
        await no_token_in_url(socket)  # type: ignore[arg-type]
    except HTTPException:
        await socket.close(code=1008)
        return
    relay: Relay = app.state.relay
    await socket.accept()
    try:
        venue, stream, after = _query(socket)
    except (KeyError, ValueError):
        await _close(socket, BAD, "venue=<uuid>, optionally stream=<uuid> and after=<position>")
        return
    client = socket.client.host if socket.client else ""
    if refused := relay.admission.admit(client):
        await _close(socket, refused, retry_reason())
        return
    detached = False
    try:
        detached = await _serve(relay, socket, (venue, stream, after), client)
    finally:
        if not detached:
            await relay.admission.leave(None, client)


async def _serve(relay: Relay, socket: LiveSocket, asked: tuple, client: str) -> bool:
    venue, stream, after = asked
    try:
        feed = await relay.feed(venue, BOUND)
    except TimeoutError:
        await _close(socket, FULL, retry_reason())
        return False
    if feed is None:
        await _close(socket, NO_VENUE, "no such venue")
        return False
    writer = writer_of(socket.scope)
    if writer is not None:
        writer.shed(socket.scope)
        socket.direct = writer
    channel = stream_channel(stream) if stream else VENUE
    task = asyncio.current_task()
    fell_behind: list[int] = []

    def slow() -> None:
        if not fell_behind:
            fell_behind.append(SLOW)
            task.cancel()

    sub = feed.audience.subscribe(channel, slow)
    try:
        last = await _catch_up(relay, feed, socket, (channel, stream, after))
        if writer is not None:
            writer.bound(feed.audience.behind_bytes)
            while not sub.go_direct(writer, last):
                last = await _forward(socket, sub, last)
            if detachable(writer.proto) and detach(
                writer.proto, _Seat(relay, feed), channel, sub, client
            ):
                return True
            await _until_gone(socket, None)
        else:
            async with anyio.create_task_group() as tg:
                tg.start_soon(_until_gone, socket, tg.cancel_scope)
                while True:
                    last = await _forward(socket, sub, last)
    except asyncio.CancelledError:
        if not fell_behind:
            raise
        task.uncancel()
    except (WebSocketDisconnect, OSError):
        pass
    except TimeoutError:
        fell_behind.append(FULL)
    feed.audience.unsubscribe(channel, sub)
    if fell_behind:
        reason = (
            retry_reason() if fell_behind[0] == FULL else "too far behind; reconnect with after"
        )
        await _close(socket, fell_behind[0], reason, writer)
    return False


async def _catch_up(relay: Relay, feed: VenueFeed, socket: LiveSocket, asked: tuple) -> int:
    """Snapshot (or the gap after `after`), the venue's notice, caught_up; its position.
    `caught_up` means what the federation held of the venue before the socket came is out:
    before the gap the socket waits (bounded) for this node to have read the venue's kept head
    as read after it came (one read for a crowd, `ReadAfter`), as the hall's feed does."""
    channel, stream, after = asked
    ring = feed.ring
    async with asyncio.timeout(BOUND):
        if after and ring.read - after > MAX_GAP:
            after = None  # so far behind a snapshot is less to send (and to read)
        if not after:
            last, text = await cached_snapshot(relay, feed, channel, stream)
            await socket.send_data(text)
        else:
            last = after
        kept = await feed.audience.heads.get(lambda: kept_head(relay.pool, feed.venue_id), BOUND)
        await ring.reached(max(last, kept), BOUND)  # a node behind the one the client came from
        if ring.covers(last):
            missed = ring.after(last, channel)
        else:
            missed = await gap(relay.pool, feed.venue_id, last, ring.read, stream)
    for position, text in missed:
        await socket.send_data(text)
        last = position
    await socket.send_data(feed.notice)
    await socket.send_data(encode({"kind": "caught_up", "position": last}))
    return last


async def cached_snapshot(
    relay: Relay, feed: VenueFeed, channel: str, stream: UUID | None
) -> tuple[int, bytes]:
    """The channel's snapshot, read once for a crowd and kept while the ring holds what
    followed it (the hall's `Flights`); the HTTP snapshot (relay/routes.py) is the same."""

    async def read() -> tuple[int, bytes]:
        whole = feed if stream is None else None  # the venue's: its boards at its position
        return await snapshot(relay.pool, feed.venue_id, stream, whole)

    return await feed.audience.snapshots.get(channel, read, BOUND)


async def _forward(socket: LiveSocket, sub: Any, last: int) -> int:
    """What the fan-out queued meanwhile, without what the catch-up already sent."""
    for position, data in await sub.take():
        if position > last or position < 0:
            await socket.send({"type": "websocket.send", "text": data.decode()})
            last = max(last, position)
    return last


async def _until_gone(socket: LiveSocket, pump: anyio.CancelScope | None) -> None:
    """Answer pings until the client leaves; close with 4400 on anything else."""
    with contextlib.suppress(WebSocketDisconnect):
        while await socket.receive_data(mode="text") == _PING_TEXT:
            await socket.send_data(PONG)
        with anyio.move_on_after(1), contextlib.suppress(Exception):
            await socket.close(code=JUNK, reason=JUNK_REASON)
    if pump is not None:
        pump.cancel()


async def _close(
    socket: LiveSocket, code: int, reason: str, writer: DirectWriter | None = None
) -> None:
    """Close with `code`; a socket whose buffer never lets the close frame out is cut."""
    with anyio.move_on_after(1) as waited, contextlib.suppress(Exception):
        await socket.close(code=code, reason=reason)
    if waited.cancelled_caught and writer is not None:
        writer.abort()
