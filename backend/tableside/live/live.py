"""GET /live (websocket): a snapshot with its position, then every delta, no gap, no duplicate.

Query: exactly one of `match=<uuid>`, `table=<n>`, `competition=<id>`, `hall=all` (every
match on a table of the hall, whatever its competition: consoles and the venue screen) or
another hall a slice registered (`LiveChannels.halls`, e.g. `hall=backgammon`);
optional `after=<pos>` (replay what followed that position instead of a snapshot, when the
hub's ring still holds it, live/ring.py; further behind, a snapshot comes instead). A
spectator's connect reads nothing from the database: the snapshot is the channel's cached one
(read once for a crowd), the gap comes from the ring. A judge's socket
asks for the `tableside.auth` subprotocol and sends its token as the first message
(`socket_auth`); it is closed with 4401 within a second of the token's revocation. Never a
token in the URL.
Close codes: 4400 a bad query or a message that is not a ping, 4429 too many sockets from
one address, 4503 too far behind (reconnect with `after`), 1013 the hub or the channel's
snapshot did not come within the bound (reconnect). A client may send
`{"type":"ping"}` at any time after that; the server answers
`{"kind":"pong"}` (a quiet match and a dead socket look the same to a browser, which sees no
protocol pings: live.js asks when the feed has been quiet a while). That is all a client ever
sends past a judge's auth message (issue 46): anything else — junk, a binary frame, a ping
with more in it — closes the socket with 4400, and a frame bigger than
`socket_auth.MAX_FRAME` is refused by its header, before its payload is read (1009, the
server's `ws_max_size`), so a flood of big frames costs no memory and stays no open socket.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any
from uuid import UUID

import anyio
import msgspec
from litestar.exceptions import NotAuthorizedException, WebSocketDisconnect

from tableside.eventlog.source import head
from tableside.live.audience import BUSY, SLOW, Subscriber
from tableside.live.channels import DOCUMENT
from tableside.live.connection import LiveSocket, guard
from tableside.live.detached import (
    JUNK,
    JUNK_REASON,
    PONG,
    SLOW_REASON,
    detach,
    detachable,
    is_ping,
)
from tableside.live.direct import DirectWriter, writer_of
from tableside.live.feed import Filter, encode, gap
from tableside.live.socket_auth import AUTH_PROTOCOL, accept_and_authenticate, wants_auth
from tableside.web.auth import Principal
from tableside.web.context import Context, context

LIVE_PATH = "/live"
REVOKED = 4401  # close code: the judge's token was revoked (or expired)
TRY_LATER = 1013  # close code: the feed could not be caught up in time; reconnect with after
_REASONS = {REVOKED: "token revoked", TRY_LATER: "try again later; reconnect with after"}

# The close reason of a page whose origin the feed does not serve (issue 52): the socket is
# accepted only to be closed with it, nothing sent on it, so the page can say why (a
# handshake's 403 reads, in a browser, as a server that is gone).
FOREIGN_ORIGIN = "origin"


class Refused(Exception):
    """The handshake is refused with a websocket close code (and a reason a face reads)."""

    def __init__(self, code: int, reason: str = "") -> None:
        super().__init__(code)
        self.code = code
        self.reason = reason


def _filter(socket: LiveSocket, halls: frozenset[str]) -> tuple[Filter, int | None]:
    q = socket.query_params
    given = [(k, q[k]) for k in ("match", "table", "competition", "hall") if q.get(k)]
    try:
        ((kind, value),) = given
        if kind == "match":
            value = str(UUID(value))
        elif kind == "table":
            value = _table_number(value)
        elif kind == "hall" and value not in halls:
            raise ValueError(value)
        after = int(q["after"]) if q.get("after") else None
    except ValueError:
        raise Refused(4400) from None
    if len(value) > 80 or "\x00" in value or (after is not None and after < 0):
        raise Refused(4400)
    return Filter(kind, value), after


def _table_number(value: str) -> str:
    if not 1 <= int(value) <= 9999:
        raise ValueError(value)
    return str(int(value))


async def _admit(ctx: Context, socket: LiveSocket) -> tuple[Filter, int | None, Principal | None]:
    # The raw header, not `socket.headers`: that parsed copy would live as long as the socket.
    origin = next((v.decode("latin-1") for k, v in socket.scope["headers"] if k == b"origin"), None)
    if origin is not None and origin not in ctx.origins:
        await socket.accept(subprotocols=AUTH_PROTOCOL if wants_auth(socket) else None)
        raise Refused(4403, FOREIGN_ORIGIN)
    flt, after = _filter(socket, ctx.live.halls)
    try:
        principal = await accept_and_authenticate(ctx.pool, socket)
    except NotAuthorizedException:
        raise Refused(4401) from None
    own_table = Filter("table", str(principal.table)) if principal else None
    if principal and principal.role == "table_judge" and flt != own_table:
        raise Refused(4403)
    return flt, after, principal


async def live_app(app: Any, scope: dict, receive: Any, send: Any) -> None:
    """The /live websocket as a plain ASGI app (below Litestar: live/connection.py): the
    app-wide guards, then admit (Origin, filter, accept, first-message token, per-address
    limit) and pump the feed until the client leaves or falls too far behind."""
    socket = LiveSocket(app, scope, receive, send)
    if await guard(socket):
        await _live(context(app.state), socket)


async def _live(ctx: Context, socket: LiveSocket) -> None:
    try:
        flt, after, principal = await _admit(ctx, socket)
    except Refused as refused:
        await socket.close(code=refused.code, reason=refused.reason)
        return
    writer = writer_of(socket.scope)
    if writer is not None:
        writer.shed(socket.scope)  # admitted: the handshake's headers are read for good
        socket.direct = writer  # its catch-up written without a pass through ASGI
    client = socket.client.host if socket.client else ""
    # counted across every worker and node (live/addresses.py); accepted by `_admit`
    if not await ctx.addresses.admit(ctx.pool, client):
        await socket.close(code=BUSY, reason="too many live sockets from this address")
        return
    detached = False
    try:
        detached = await _serve(ctx, socket, writer, (flt, after, principal), client)
    finally:
        if not detached:  # else once it is gone (live/detached.py)
            await ctx.addresses.leave(ctx.pool, client)


class _Ending:
    """Why a socket's handler is ended from outside — fallen behind (the fan-out) or its token
    revoked (the LISTEN connection) — by cancelling its task; it then closes with the code."""

    __slots__ = ("code", "task")

    def __init__(self) -> None:
        task = asyncio.current_task()
        if task is None:
            raise RuntimeError("a socket's handler runs in a task")
        self.task, self.code = task, 0

    def slow(self) -> None:
        self._end(SLOW)

    def revoked(self) -> None:
        self._end(REVOKED)

    def _end(self, code: int) -> None:
        if not self.code:
            self.code = code
            self.task.cancel()


async def _serve(
    ctx: Context,
    socket: LiveSocket,
    writer: DirectWriter | None,
    admitted: tuple[Filter, int | None, Principal | None],
    client: str,
) -> bool:
    """Catch the socket up, then let the fan-out write to it directly (live/direct.py): a
    spectator's socket lives on without this task (True: detached, live/detached.py), a
    judge's task waits for the client to leave — or, under a server without a direct
    writer, pumps its queue beside a task that waits for that."""
    flt, after, principal = admitted
    ending = _Ending()
    token = principal.token_id if principal else None
    if token is not None:
        ctx.sockets.setdefault(token, set()).add(ending.revoked)
    sub = ctx.audience.subscribe(flt.channel, ending.slow)
    detached = False
    try:
        if writer is not None:
            await _pump(ctx, socket, flt, after, sub, writer)
            if token is None and detachable(writer.proto):
                detached = detach(writer.proto, ctx, flt.channel, sub, client)
                if detached:
                    return True
            await _until_disconnect(socket, None)
        else:
            async with anyio.create_task_group() as tg:
                tg.start_soon(_until_disconnect, socket, tg.cancel_scope)
                await _pump(ctx, socket, flt, after, sub, None)
    except asyncio.CancelledError:
        if not ending.code:
            raise
        ending.task.uncancel()
    except (WebSocketDisconnect, OSError):  # OSError: the server saw the client go
        pass
    except TimeoutError:  # the hub or the channel's one read did not come in time
        ending.code = TRY_LATER
    finally:
        if not detached:
            ctx.audience.unsubscribe(flt.channel, sub)
        if token is not None:
            _forget(ctx.sockets, token, ending.revoked)
    if ending.code:
        await _close(socket, writer, ending.code)
    return False


def _forget(sockets: dict, token: UUID, revoked) -> None:
    """Unregister a socket of `token`; the token's entry goes with its last socket."""
    mine = sockets[token]
    mine.discard(revoked)
    if not mine:
        del sockets[token]


async def _close(socket: LiveSocket, writer: DirectWriter | None, code: int) -> None:
    """Close with `code`; a socket whose buffer never lets the close frame out is cut."""
    reason = _REASONS.get(code, SLOW_REASON)
    with anyio.move_on_after(1) as waited, contextlib.suppress(Exception):
        await socket.close(code=code, reason=reason)
    if waited.cancelled_caught and writer is not None:
        writer.abort()


async def _pump(
    ctx: Context,
    socket: LiveSocket,
    flt: Filter,
    after: int | None,
    sub: Subscriber,
    writer: DirectWriter | None,
) -> None:
    """Snapshot (or the gap after `after`), caught_up, then the queued deltas — until the
    queue is empty and the subscriber goes direct (with a writer; never without one). Every
    part comes from memory (the hub's ring, the channel's cached snapshot and documents);
    only a snapshot older than the ring reads its gap from the database. Before the gap, the
    socket waits (bounded) for the hub to have read the log's head as read after it came
    (one read for a crowd: live/flights.py ReadAfter): `caught_up` means what was stored
    before the socket came is out, resumed or not."""
    ring = ctx.audience.ring
    async with asyncio.timeout(_bound(ctx)):
        await ring.ready.wait()  # the hub has filled its ring up to the head it started at
    if after is None or after == 0 or not ring.covers(after):
        after = await _snapshot(ctx, socket, flt)
    await ring.reached(await ctx.audience.heads.get(lambda: _head(ctx), _bound(ctx)), _bound(ctx))
    last = after
    for position, message in await _gap(ctx, flt, last):
        await socket.send_data(message)
        last = position
    if (now := await _documents(ctx, flt)) is not None:
        await socket.send_data(now)  # the channel's documents, whole (live/channels.py)
    await socket.send_data(encode({"kind": "caught_up", "position": last}))
    if writer is not None:
        writer.bound(ctx.audience.behind_bytes)
    while writer is None or not sub.go_direct(writer, last):
        for position, data in await sub.take():
            if position > last or position == DOCUMENT:
                await socket.send({"type": "websocket.send", "text": data.decode()})
                last = max(last, position)


def _bound(ctx: Context) -> float:
    """How long a socket waits on the hub or a channel's one read (as long as on the pool)."""
    return ctx.settings.db_acquire_seconds + ctx.settings.db_statement_seconds


async def _gap(ctx: Context, flt: Filter, after: int) -> list[tuple[int, bytes]]:
    """The channel's deltas after `after`: from the ring; from the database only for a
    snapshot older than the ring (a read model far behind the hub)."""
    ring = ctx.audience.ring
    if ring.covers(after):
        return ring.after(after, flt.channel)
    chunks = gap(ctx.pool, ctx.registry, ctx.live, flt, after)
    return [item async for chunk in chunks for item in chunk]


async def _documents(ctx: Context, flt: Filter) -> bytes | None:
    """The channel's documents (its opener's, read once per DOCUMENT_SECONDS however many
    sockets ask; a published one replaces them), if its kind has an opener."""
    opener = ctx.live.openers.get(flt.kind)
    if opener is None:
        return None

    async def read() -> tuple[float, bytes | None]:
        return time.monotonic(), await opener(ctx.pool, flt.value)

    return (await ctx.audience.documents.get(flt.channel, read, _bound(ctx)))[1]


async def _snapshot(ctx: Context, socket: LiveSocket, flt: Filter) -> int:
    """Send the channel's snapshot: the cached one, or the one read once for every socket
    asking meanwhile (live/flights.py); its position."""

    async def read() -> tuple[int, bytes]:
        async with (
            ctx.pool.acquire() as conn,
            conn.transaction(isolation="repeatable_read", readonly=True),
        ):
            return await _claimed(ctx, conn, flt) or await _projected(ctx, conn, flt)

    position, text = await ctx.audience.snapshots.get(flt.channel, read, _bound(ctx))
    await socket.send_data(text)
    return position


async def _head(ctx: Context) -> int:
    """The log's head now: the deltas up to it are in the ring once the hub has read it."""
    async with ctx.pool.acquire() as conn:
        return await head(conn)


async def _claimed(ctx: Context, conn, flt: Filter) -> tuple[int, bytes] | None:
    """A slice's own snapshot of the channel (live/channels.py), if one claims it."""
    for claim in ctx.live.snapshotters:
        if (claimed := await claim(conn, ctx.registry, flt.kind, flt.value)) is not None:
            return claimed
    return None


async def _projected(ctx: Context, conn, flt: Filter) -> tuple[int, bytes]:
    """The channel's live documents from the read model a discipline keeps them in
    (`Feed.projected`), at the model's tracking position (none keeps them: none, at the
    head)."""
    if flt.kind not in ctx.live.projected:
        now = await head(conn)
        return now, encode(_snapshot_message(now, flt, []))
    projection, query = ctx.live.projected[flt.kind]
    key = (
        UUID(flt.value)
        if flt.kind == "match"
        else int(flt.value)
        if flt.kind == "table"
        else flt.value
    )
    position = await conn.fetchval(
        "SELECT position FROM projection_tracking WHERE name = $1", projection
    )
    rows = await conn.fetch(query, key)
    matches = [msgspec.Raw(r[0].encode()) for r in rows]
    return position, encode(_snapshot_message(position, flt, matches))


def _snapshot_message(position: int, flt: Filter, matches: list) -> dict[str, Any]:
    return {
        "kind": "snapshot",
        "position": position,
        "filter": {flt.kind: flt.value},
        "matches": matches,
    }


async def _until_disconnect(socket: LiveSocket, pump: anyio.CancelScope | None) -> None:
    """Answer a ping until the client leaves, or close with JUNK on anything else; then end
    the pump beside us, if any."""
    with contextlib.suppress(WebSocketDisconnect):
        while is_ping(await socket.receive_data(mode="text")):  # a binary frame reads ""
            await socket.send_data(PONG)
        with anyio.move_on_after(1), contextlib.suppress(Exception):
            await socket.close(code=JUNK, reason=JUNK_REASON)
    if pump is not None:
        pump.cancel()


def revoke_sockets(ctx: Context, token_id: str) -> None:
    """Close every open socket of a revoked token (called from the LISTEN connection)."""
    with contextlib.suppress(ValueError):
        for revoked in list(ctx.sockets.get(UUID(token_id), ())):
            revoked()
