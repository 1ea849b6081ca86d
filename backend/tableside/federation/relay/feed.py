"""One venue's live feed on one federation node: its kept events read once per wake-up (a
NOTIFY from whichever node kept them, or the node's poll), each encoded once and handed to the
hall's own fan-out (`live/audience.Audience`: its ring, its cached snapshots, its direct
writes) on two channels: `venue` (every event of the venue) and `stream:<id>` (one match).

Positions are the venue's own (dense 1, 2, 3 … per venue, decision 0165), so each venue has
an audience and a ring of its own. Its notice — the venue online, or offline since it was
last heard from (`venue_seen`, older than the relay's bound) — goes to every socket of the
venue as a whole document (`DOCUMENT`), and to each new one after its snapshot or gap.
"""

from __future__ import annotations

import asyncio
import logging
import os
from datetime import datetime
from uuid import UUID

import asyncpg
import msgspec

from tableside.disciplines.backgammon.events import SpectatorsAdmitted, SpectatorsBarred
from tableside.federation.relay.boards import Boards, board_of, record_of
from tableside.live.audience import Audience
from tableside.live.channels import DOCUMENT
from tableside.live.feed import encode
from tableside.live.ring import RING_SIZE, Ring

log = logging.getLogger(__name__)
CHUNK = 500  # kept events read in one go
VENUE = "venue"
OFFLINE = "relay_venue_offline"  # the notice's code (pwa/i18n/codes.*.json)

_AFTER = """
SELECT position, stream_id, version, type_name, payload, recorded_at FROM venue_events
WHERE venue_id = $1 AND position > $2 AND position <= $3 ORDER BY position LIMIT $4
"""
_HEAD = "SELECT coalesce(max(position), 0) FROM venue_events WHERE venue_id = $1"
_STREAM = """
SELECT position, stream_id, version, type_name, payload, recorded_at FROM venue_events
WHERE venue_id = $1 AND stream_id = $2 AND position <= $3 ORDER BY position
"""
_STREAMS = """
SELECT DISTINCT ON (stream_id) stream_id, version, position, type_name FROM venue_events
WHERE venue_id = $1 AND position <= $2 ORDER BY stream_id, version DESC
"""
_BARRED_AT = """
SELECT DISTINCT ON (stream_id) stream_id, type_name FROM venue_events
WHERE venue_id = $1 AND position <= $2 AND type_name = ANY($3::text[])
ORDER BY stream_id, position DESC
"""
_encoder = msgspec.json.Encoder()
# a match whose spectators the TD barred at a player's request (KSI 1.6.4): its events reach
# remote spectators as a notice only, as the hall's own feed words them
BARRED = SpectatorsBarred.__struct_config__.tag
ADMITTED = SpectatorsAdmitted.__struct_config__.tag
BARRED_CODE = "bg_spectators_barred"


async def kept_head(pool: asyncpg.Pool, venue_id: UUID) -> int:
    """The newest position the federation keeps of the venue (0: none yet)."""
    return await pool.fetchval(_HEAD, venue_id)


def ring_size() -> int:
    """TABLESIDE_FEDERATION_RELAY_RING: the events of a venue a node keeps in memory (the
    hall's RING_SIZE); a resume further back reads the kept rows."""
    return int(os.environ.get("TABLESIDE_FEDERATION_RELAY_RING") or RING_SIZE)


def stream_channel(stream: UUID) -> str:
    return f"stream:{stream}"


class Bar:
    """The streams whose spectators are barred (KSI 1.6.4), followed event by event."""

    def __init__(self, barred: set[UUID] | None = None) -> None:
        self.barred = barred or set()

    @classmethod
    async def at(cls, pool: asyncpg.Pool, venue_id: UUID, position: int) -> Bar:
        """The streams barred at a venue's `position`."""
        rows = await pool.fetch(_BARRED_AT, venue_id, position, [BARRED, ADMITTED])
        return cls({r["stream_id"] for r in rows if r["type_name"] == BARRED})

    def withheld(self, row: asyncpg.Record) -> bool:
        """Whether this kept event, the next of its stream, reaches spectators as a notice."""
        if row["type_name"] == BARRED:
            self.barred.add(row["stream_id"])
        elif row["type_name"] == ADMITTED:
            self.barred.discard(row["stream_id"])
        return row["stream_id"] in self.barred


def event_of(row: asyncpg.Record, board: dict | None = None, withheld: bool = False) -> dict:
    """A kept event as remote spectators read it (its payload the venue's exact JSON), with
    its match's board after it where the feed folded one (relay/boards.py); of a match whose
    spectators are barred, only that it happened and the notice (KSI 1.6.4), no board."""
    if withheld:
        return {
            "kind": "event",
            "position": row["position"],
            "stream": str(row["stream_id"]),
            "version": row["version"],
            "barred": True,
            "code": BARRED_CODE,
            "rule": "KSI 1.6.4",
        }
    found = {
        "kind": "event",
        "position": row["position"],
        "stream": str(row["stream_id"]),
        "version": row["version"],
        "type": row["type_name"],
        "payload": msgspec.Raw(bytes(row["payload"])),
        "recorded_at": row["recorded_at"].isoformat(),
    }
    return found | {"board": board} if board is not None else found


class VenueFeed:
    """One venue's audience on this node, the position read up to, and its notice."""

    def __init__(self, venue_id: UUID) -> None:
        self.venue_id = venue_id
        # the node admits sockets (relay/admission.py): the audience counts no address
        self.audience = Audience(limit=4096, per_client=2**31)
        self.audience.ring = Ring(ring_size())
        self.published = 0
        self.boards = Boards(venue_id)
        self.woken = asyncio.Event()
        self.notice = self._notice(None, offline=False)
        self.offline = False
        self.bar = Bar()
        self._tasks: list[asyncio.Task] = []

    @property
    def ring(self):
        return self.audience.ring

    async def start(self, pool: asyncpg.Pool) -> None:
        """Fill the ring with the venue's last RING_SIZE events (a spectator resuming from
        another node gets its gap from memory), then follow every wake-up."""
        head = await kept_head(pool, self.venue_id)
        self.published = max(0, head - self.ring.size)
        self.ring.begin(self.published)
        self.bar = await Bar.at(pool, self.venue_id, self.published)
        await self.read(pool, fill=True)
        self.ring.ready.set()
        self._tasks = [
            asyncio.create_task(self.audience.run()),
            asyncio.create_task(self._follow(pool)),
        ]

    def stop(self) -> None:
        for task in self._tasks:
            task.cancel()

    def wake(self) -> None:
        self.woken.set()

    async def _follow(self, pool: asyncpg.Pool) -> None:
        while True:
            await self.woken.wait()
            self.woken.clear()
            try:
                await self.read(pool)
            except (asyncpg.PostgresError, OSError, TimeoutError) as exc:
                log.warning("relay: venue %s not read: %s", self.venue_id, exc)
                await asyncio.sleep(1)
                self.woken.set()

    async def read(self, pool: asyncpg.Pool, fill: bool = False) -> None:
        """Every kept event after what was read, in order, each encoded once."""
        while True:
            rows = await pool.fetch(_AFTER, self.venue_id, self.published, 2**62, CHUNK)
            for row in rows:
                withheld = self.bar.withheld(row)
                board = await self.boards.after(pool, row)  # folded even while barred
                text = _encoder.encode(event_of(row, None if withheld else board, withheld))
                channels = (VENUE, stream_channel(row["stream_id"]))
                if fill:
                    self.ring.add(row["position"], text, channels)
                else:
                    bar_changed = row["type_name"] in (BARRED, ADMITTED)  # KSI 1.6.4
                    self.audience.publish(row["position"], text, channels, bar_changed)
            if rows:
                self.published = rows[-1]["position"]
                self.audience.position = max(self.audience.position, self.published)
                self.ring.reach(self.published)
            if len(rows) < CHUNK:
                return

    def seen(self, seen_at: datetime | None, offline: bool) -> None:
        """What the poll found of the venue: its notice changes, every socket is told."""
        text = self._notice(seen_at, offline)
        if text == self.notice:
            return
        self.offline, self.notice = offline, text
        channels = tuple(self.audience.channels)
        if channels:
            self.audience.publish(DOCUMENT, text, channels)

    def _notice(self, seen_at: datetime | None, offline: bool) -> bytes:
        """The venue's state as remote spectators are told it (`since`: an ISO time, worded
        by the page as HH:MM in the reader's zone and language)."""
        notice = {"kind": "venue", "venue": str(self.venue_id)}
        if offline:
            since = seen_at.isoformat() if seen_at else None
            notice |= {"state": "offline", "since": since, "code": OFFLINE}
        else:
            notice |= {"state": "online"}
        return encode(notice)


async def snapshot(
    pool: asyncpg.Pool, venue_id: UUID, stream: UUID | None, feed: VenueFeed | None = None
) -> tuple[int, bytes]:
    """A channel's snapshot at the venue's held head: a match's events so far and its board,
    or the venue's streams with their tips — and, handed the venue's feed, at the feed's
    position with the boards it folded (the live pages' list of matches). Rows at or before
    the head never change (append-only, dense)."""
    boards = (
        {str(k): v for k, v in feed.boards.current().items() if k not in feed.bar.barred}
        if feed
        else None
    )
    async with pool.acquire() as conn:
        head = feed.published if feed else await conn.fetchval(_HEAD, venue_id)
        found: dict = {"kind": "snapshot", "venue": str(venue_id), "position": head}
        if stream is not None:
            rows = await conn.fetch(_STREAM, venue_id, stream, head)
            bar = Bar()
            events = [event_of(r, withheld=bar.withheld(r)) for r in rows]
            found |= {"stream": str(stream), "events": events}
            board = None if stream in bar.barred else board_of([record_of(r) for r in rows])
            found |= {"board": board} if board is not None else {}
        else:
            found |= {"boards": boards} if boards is not None else {}
            rows = await conn.fetch(_STREAMS, venue_id, head)
            found["streams"] = [
                {
                    "stream": str(r["stream_id"]),
                    "version": r["version"],
                    "position": r["position"],
                    "type": r["type_name"],
                }
                for r in rows
            ]
    return head, _encoder.encode(found)


async def gap(
    pool: asyncpg.Pool, venue_id: UUID, after: int, upto: int, stream: UUID | None
) -> list[tuple[int, bytes]]:
    """The channel's deltas after `after` up to `upto` from the database (a resume older than
    the ring): the kept rows are the deltas themselves."""
    out: list[tuple[int, bytes]] = []
    bar = await Bar.at(pool, venue_id, after)
    while after < upto:
        rows = await pool.fetch(_AFTER, venue_id, after, upto, CHUNK)
        if not rows:
            break
        for r in rows:  # every row followed by the bar, the stream's only sent
            withheld = bar.withheld(r)
            if stream is None or r["stream_id"] == stream:
                out.append((r["position"], _encoder.encode(event_of(r, withheld=withheld))))
        after = rows[-1]["position"]
    return out
