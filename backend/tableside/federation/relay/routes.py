"""`GET /api/federation/live/{venue}` (`?stream=<uuid>`): a channel's snapshot over plain HTTP,
cacheable — an ETag naming the venue, the channel and the held position, and a short public
`Cache-Control`, so a proxy or a CDN in front (infra/nginx.conf) answers a crowd arriving at
once with one request to a node. The client then opens the websocket with `after=<position>`
and gets only what followed (decision 0197). `If-None-Match` with the current ETag: 304."""

from __future__ import annotations

from uuid import UUID

from litestar import Request, Response, get
from litestar.datastructures import State
from litestar.exceptions import NotFoundException

from tableside.federation.relay.feed import VENUE, stream_channel
from tableside.federation.relay.node import Relay
from tableside.federation.relay.socket import BOUND, cached_snapshot
from tableside.web.problems import coded

CACHE = "public, max-age=1, stale-while-revalidate=5"


@get("/api/federation/live/{venue_id:uuid}", summary="A venue's live snapshot (cacheable)")
async def live_snapshot(
    request: Request, state: State, venue_id: UUID, stream: UUID | None = None
) -> Response:
    """The snapshot a remote spectator starts from; then `/api/federation/live?after=`."""
    relay: Relay = state.relay
    feed = await relay.feed(venue_id, BOUND)
    if feed is None:
        raise NotFoundException("No such venue", extra=coded("federation_no_venue"))
    channel = stream_channel(stream) if stream else VENUE
    position, text = await cached_snapshot(relay, feed, channel, stream)
    etag = f'"{venue_id}-{channel}-{position}"'
    headers = {"ETag": etag, "Cache-Control": CACHE, "Vary": "Accept-Encoding"}
    if request.headers.get("if-none-match") == etag:
        return Response(b"", status_code=304, headers=headers)
    return Response(text, media_type="application/json", headers=headers)


RELAY_ROUTES = [live_snapshot]
