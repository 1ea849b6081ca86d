"""One round of the uplink, and what it does when the federation cannot be reached.

A round: enrol if not yet (the code from TABLESIDE_FEDERATION_CODE or the folder's `code`
file, spent once); learn where to resume (the federation's held head, once per start); then
push batches of at most `BATCH` events after the acknowledged position — each with the
venue's store-wide hash there (`anchor`), its head and its stored checkpoints — until caught
up, and at least once a `HEARTBEAT` so a store rewritten without new events is still shown
to the federation. Every wait is bounded (HTTP `TIMEOUT`, the connection's); a failure backs
off exponentially up to `backoff_max`, with jitter (decision 0167).
"""

from __future__ import annotations

import contextlib
import logging
import random
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import httpx
import msgspec
import psycopg
from psycopg.rows import class_row

from tableside.db.rows import one
from tableside.eventlog import NOTIFY_CHANNEL, checkpoint_db, federation_ack
from tableside.eventlog.chain import GENESIS
from tableside.eventlog.jsonl import FORMAT, Header, export_lines
from tableside.eventlog.records import RAW_COLUMNS, RawRecord
from tableside.uplink import files
from tableside.uplink.files import Credential, Status

BATCH = 500
logging.getLogger("httpx").setLevel(logging.WARNING)  # a line per push is no news
HEARTBEAT = 30.0
TIMEOUT = httpx.Timeout(10.0, connect=3.0)
_AFTER = f"SELECT {RAW_COLUMNS} FROM stored_events WHERE notification_id > %s ORDER BY 3 LIMIT %s"
_HASH_AT = "SELECT global_hash FROM stored_events WHERE notification_id = %s"
_HEAD = "SELECT coalesce(max(notification_id), 0) FROM stored_events"
_MARKS = (
    "SELECT position, head_hash, signed_at, public_key, signature FROM event_checkpoints"
    " WHERE position > %s AND position <= %s ORDER BY position, checkpoint_id"
)


class Offline(Exception):
    """The federation (or the store) cannot be reached now: back off and try again."""


class Stopped(Exception):
    """The federation refused (a fork, a broken batch, an unknown credential): say so and
    try again only after the longest back-off."""

    def __init__(self, state: str, code: str, detail: str, position: int = 0) -> None:
        super().__init__(detail)
        self.state, self.code, self.detail, self.position = state, code, detail, position


@dataclass
class Pusher:
    """The uplink of one venue store: its database, its federation, its folder."""

    database_url: str
    federation: str
    folder: Path
    public_key: str  # the venue's checkpoint key, bound at enrolment
    code: str | None = None
    backoff_max: float = 60.0
    heartbeat: float = HEARTBEAT  # TABLESIDE_UPLINK_HEARTBEAT (the relay's offline notice)
    acked: int | None = None  # the federation's held head, once learnt
    failures: int = 0
    next_try: float = 0.0
    last_push: float = field(default=-HEARTBEAT)
    ack: federation_ack.Ack | None = None
    every: float = 0.5  # the longest a caught-up round waits for the store's next event
    conn: psycopg.Connection | None = None  # kept between rounds, LISTENing
    http: httpx.Client | None = None
    said: Status | None = None

    def step(self) -> None:
        """One round if its time has come, then (caught up) a wait of at most `every` for
        the store's next event; never raises (the thread goes on)."""
        now = time.monotonic()
        if now < self.next_try:
            return
        try:
            head = self._round()
            self.failures = 0
            self._status("witnessed" if self.ack else "enrolled", head=head)
            self._wait()
        except Offline as exc:
            self.close()
            self.failures += 1
            delay = min(self.backoff_max, 2 ** min(self.failures - 1, 16)) * random.uniform(0.5, 1)
            self.next_try = now + delay
            self._status("offline", detail=str(exc), retry_in=round(delay, 1))
        except Stopped as exc:
            self.next_try = now + self.backoff_max
            self.acked = None  # learn again where the federation stands
            self._status(exc.state, code=exc.code, detail=exc.detail, alarm_position=exc.position)

    def close(self) -> None:
        """Let go of the connection and the client (the next round makes new ones)."""
        for held in (self.conn, self.http):
            if held is not None:
                with contextlib.suppress(Exception):
                    held.close()
        self.conn = self.http = None

    def _round(self) -> int:
        self.http = self.http or httpx.Client(base_url=self.federation, timeout=TIMEOUT)
        credential = files.read_credential(self.folder) or self._enrol(self.http)
        bearer = {"Authorization": f"Bearer {credential.credential}"}
        try:
            if self.conn is None:
                self.conn = psycopg.connect(self.database_url, connect_timeout=5, autocommit=True)
                self.conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
            if self.acked is None:
                self.acked = self._held(self.http, bearer)
            return self._catch_up(self.conn, self.http, bearer)
        except psycopg.Error as exc:
            raise Offline(f"the store: {exc}") from None

    def _wait(self) -> None:
        """Until the store's next append (its NOTIFY) or `every` seconds, whichever first."""
        try:
            if self.conn is None:  # the round that failed let go of it: the next makes one
                return
            for _ in self.conn.notifies(timeout=self.every, stop_after=1):
                pass
        except psycopg.Error as exc:
            raise Offline(f"the store: {exc}") from None

    def _enrol(self, http: httpx.Client) -> Credential:
        code = self.code or _read_code(self.folder)
        if not code:
            raise Stopped("refused", "federation_code_invalid", "no enrolment code given")
        reply = _call(
            http,
            "POST",
            "/api/federation/enrol",
            json={"code": code, "public_key": self.public_key},
        )
        made = reply.json()
        credential = Credential(
            self.federation,
            made["venue_id"],
            made["name"],
            made["credential"],
            made["federation_key"],
        )
        files.write_credential(self.folder, credential)
        (self.folder / "code").unlink(missing_ok=True)
        return credential

    def _held(self, http: httpx.Client, bearer: dict[str, str]) -> int:
        return int(
            _call(http, "GET", "/api/federation/push/head", headers=bearer).json()["position"]
        )

    def _catch_up(self, conn: psycopg.Connection, http: httpx.Client, bearer: dict) -> int:
        """Push until the federation holds the head (a heartbeat at least every HEARTBEAT)."""
        while True:
            head = one(conn.execute(_HEAD))[0]
            due = time.monotonic() - self.last_push >= self.heartbeat
            if self.acked == head and not due:  # behind the acknowledged: say so at once
                return head
            self._push(conn, http, bearer, head)
            if self.acked is not None and self.acked >= head:
                return head

    def _push(self, conn: psycopg.Connection, http: httpx.Client, bearer: dict, head: int) -> None:
        acked = self.acked
        if acked is None:  # `_round` learnt it before it catches up
            raise Offline("the federation's held head is not known")
        body, last = batch(conn, acked, head)
        params = {"after": acked, "head": head}
        reply = _call(
            http,
            "POST",
            "/api/federation/push",
            content=body,
            params=params,
            headers={**bearer, "Content-Type": "application/jsonl"},
        )
        found = reply.json()
        self.last_push = time.monotonic()
        if reply.status_code == 409 and found.get("code") == "federation_gap":
            self.acked = int(found["position"])
            return
        held = int(found["position"])
        if held <= acked and last > acked:
            raise Offline(f"the federation kept nothing after position {acked}")
        self.acked = held
        if found.get("ack"):
            self.ack = msgspec.convert(found["ack"], federation_ack.Ack)
            files.keep_ack(self.folder, self.ack)

    def _status(self, state: str, **more) -> None:
        """Written when it changed (a round that only waited writes nothing)."""
        now = datetime.now(UTC).isoformat()
        seen = Status(state, now, self.federation, position=self.acked or 0, ack=self.ack, **more)
        if self.said is not None and msgspec.structs.replace(self.said, at=now) == seen:
            return
        self.said = seen
        files.write_status(self.folder, seen)


def batch(conn: psycopg.Connection, after: int, head: int) -> tuple[bytes, int]:
    """The JSONL of the events after `after` (at most BATCH), anchored at `after`, with the
    checkpoints they cover and the newest stored one as the seal; and its last position."""
    with conn.cursor(row_factory=class_row(RawRecord)) as cur:
        records = cur.execute(_AFTER, (after, BATCH)).fetchall()
    row = conn.execute(_HASH_AT, (after,)).fetchone() if after else None
    anchor = bytes(row[0]) if row else GENESIS
    last = records[-1].position if records else after
    marks = [checkpoint_db.from_row(r) for r in conn.execute(_MARKS, (after, last)).fetchall()]
    seal = checkpoint_db.latest_checkpoint(conn)
    head_hash = records[-1].hash.hex() if records else ""
    header = Header(FORMAT, None, len(records), head_hash, seal, anchor.hex(), 0, tuple(marks))
    lines = export_lines(records)[1:]
    return msgspec.json.encode(header) + b"\n" + b"".join(lines), last


def _call(http: httpx.Client, method: str, path: str, **kwargs) -> httpx.Response:
    """One request; Offline when unreachable or the federation is unwell (5xx), Stopped
    when it refuses (a fork: `forked`; anything else: `refused`)."""
    try:
        reply = http.request(method, path, **kwargs)
    except httpx.HTTPError as exc:
        raise Offline(f"{type(exc).__name__}: {exc}") from None
    if reply.status_code >= 500 or reply.status_code == 429:
        raise Offline(f"the federation answered {reply.status_code}")
    if reply.status_code < 400:
        return reply
    found = _problem(reply)
    code = str(found.get("code", ""))
    if code == "federation_gap":
        return reply
    state = "forked" if code.startswith("federation_fork") else "refused"
    detail = str(found.get("detail") or found.get("title") or reply.status_code)
    raise Stopped(state, code, detail, int(found.get("position") or 0))


def _problem(reply: httpx.Response) -> dict:
    try:
        found = reply.json()
    except ValueError:
        return {}
    return found if isinstance(found, dict) else {}


def _read_code(folder: Path) -> str | None:
    path = folder / "code"
    return path.read_text().strip() or None if path.is_file() else None
