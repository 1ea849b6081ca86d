"""A database that dies and comes back (issue 10 point 5): `tableside serve` on a temp data
dir while commands are posted; `kill -9` of the embedded postmaster (not of the server).

While it is gone every command gets 503 problem+json with Retry-After (never a 500); within
10 s the server has restarted it and commands succeed again; every acknowledged command is
in the store afterwards, exactly as acknowledged.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import psutil
import psycopg
import pytest
from support.harness import wait_for
from tableside.db.embedded import _postmaster_info
from test_serve import Serve, free_port, postmasters
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import connect

pytestmark = pytest.mark.long  # started first under `make test` (tests/conftest.py)

ADMIN = {"TABLESIDE_ADMIN_USER": "head", "TABLESIDE_ADMIN_PASSWORD": "head-secret-1"}
ENV = {"DATABASE_URL": "", "PORT": "", "HOST": "", **ADMIN}
ENV |= {"TABLESIDE_COMMAND_RATE": "1000", "TABLESIDE_COMMAND_BURST": "1000"}


class Judge:
    """Posts strokes one after another, each retried under its command_id until stored."""

    def __init__(self, base: str) -> None:
        self.http = httpx.Client(base_url=base, timeout=30)
        r = self.http.post("/api/login", json={"username": "head", "password": "head-secret-1"})
        r.raise_for_status()
        self.http.headers["Authorization"] = f"Bearer {r.json()['token']}"
        self.acked: list[tuple[str, list[int], float]] = []  # command_id, positions, when
        self.refusals: list[tuple[int, httpx.Headers, str, float]] = []  # status, …, when
        self.stop = threading.Event()

    def open_match(self) -> None:
        body = {"command_id": str(uuid.uuid4()), "table": 7, "side_a": ["a"], "side_b": ["b"]}
        r = self.http.post("/api/matches", json=body)
        assert r.status_code == 201, r.text
        self.match, self.version = r.json()["match_id"], r.json()["last_version"]
        self.turn = "a"
        self._post({"type": "AssignOpeningShot", "method": "lot", "lot_winner": "A"})

    def run(self) -> None:
        while not self.stop.is_set():
            self._post({"type": "RecordStroke", "player": self.turn, "facts": {}})
            self.turn = "b" if self.turn == "a" else "a"

    def _post(self, command: dict) -> None:
        command_id = str(uuid.uuid4())
        body = {"command_id": command_id, "expected_version": self.version, "command": command}
        while True:
            try:
                r = self.http.post(f"/api/matches/{self.match}/commands", json=body)
            except httpx.TransportError:
                time.sleep(0.05)
                continue
            if r.status_code == 201:
                self.version = r.json()["last_version"]
                self.acked.append((command_id, r.json()["positions"], time.monotonic()))
                return
            self.refusals.append((r.status_code, r.headers, r.text, time.monotonic()))
            assert r.status_code == 503, r.text
            time.sleep(0.1)


class Spectator:
    """Follows the match on /live from before the kill, reconnecting with `after=` (as the
    spectator face does) whenever its socket is lost."""

    def __init__(self, base: str, match_id: str) -> None:
        self.url = f"{base.replace('http', 'ws', 1)}/live?match={match_id}"
        self.start: int | None = None  # the snapshot's position
        self.last = 0
        self.positions: list[int] = []
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            after = "" if self.start is None else f"&after={self.last}"
            try:
                with connect(self.url + after, open_timeout=5) as ws:
                    while not self.stop.is_set():
                        self._take(json.loads(ws.recv(timeout=0.5)))
            except TimeoutError:
                continue
            except (ConnectionClosed, InvalidHandshake, OSError):
                time.sleep(0.2)

    def _take(self, msg: dict) -> None:
        if msg["kind"] == "snapshot" and self.start is None:
            self.start = self.last = msg["position"]
        elif msg["kind"] == "event":
            self.positions.append(msg["position"])
            self.last = msg["position"]


@pytest.fixture
def data_dir() -> Iterator[Path]:
    """Outside pytest's own temp root (0700, shared with other runs as root): the embedded
    server's system user must reach it, as in tests/conftest.py."""
    work = Path(tempfile.mkdtemp(prefix="tableside-restart-"))
    yield work / "pgdata"
    for pid in postmasters(work / "pgdata"):
        psutil.Process(pid).kill()
    shutil.rmtree(work, ignore_errors=True)


def test_killed_postmaster_is_restarted_and_nothing_acknowledged_is_lost(data_dir: Path):
    serve = Serve(data_dir, free_port(), **ENV)
    try:
        assert serve.health()["status"] == "ok"
        judge = Judge(f"http://127.0.0.1:{serve.port}")
        judge.open_match()
        spectator = Spectator(f"http://127.0.0.1:{serve.port}", judge.match)
        watcher = threading.Thread(target=spectator.run)
        watcher.start()
        while spectator.start is None:
            time.sleep(0.05)
        poster = threading.Thread(target=judge.run)
        poster.start()
        try:
            while len(judge.acked) < 20:
                time.sleep(0.05)
            [postmaster] = postmasters(data_dir)
            os.kill(postmaster, signal.SIGKILL)
            killed_at, acked_before = time.monotonic(), len(judge.acked)
            psutil.Process(postmaster).wait(5)
            down = httpx.get(f"http://127.0.0.1:{serve.port}/health", timeout=5)
            if down.status_code == 503:  # unless it is back already
                assert int(down.headers["retry-after"]) >= 1
            deadline = killed_at + 10
            while len(judge.acked) < acked_before + 20 and time.monotonic() < deadline:
                time.sleep(0.05)
        finally:
            judge.stop.set()
            poster.join(60)
        # The outage is seen: by the judge (503s) or, when the server was back before the
        # judge's next request reached it (a loaded machine), by the health check at the kill.
        assert judge.refusals or down.status_code == 503, "nothing met the database gone"
        first_refusal = min((when for *_, when in judge.refusals), default=killed_at)
        back = [when for _, _, when in judge.acked if when > first_refusal]
        assert back and back[0] - killed_at < 10, "commands did not succeed again within 10 s"
        assert len(judge.acked) >= acked_before + 20
        for status, headers, text, _ in judge.refusals:
            assert status == 503, text
            assert headers["content-type"].startswith("application/problem+json")
            assert int(headers["retry-after"]) >= 1
        assert postmasters(data_dir) not in ([], [postmaster])  # a new server, just one
        with psycopg.connect(_postmaster_info(data_dir).get_uri()) as conn:
            rows = conn.execute(
                "SELECT command_id::text, array_agg(notification_id ORDER BY notification_id)"
                " FROM stored_events GROUP BY command_id"
            ).fetchall()
        stored = dict(rows)
        for command_id, positions, _ in judge.acked:
            assert stored[command_id] == positions
        # The health watch looks every 0.5 s on its own connection: it says ok once it has
        # reconnected and no request has waited a second for a pooled connection since.
        wait_for(lambda: serve.health()["status"] == "ok", timeout=10, step=0.1)
        # the spectator resumed from its position: every acknowledged event once, in order
        wanted = sorted(p for _, positions, _ in judge.acked for p in positions)
        wanted = [p for p in wanted if p > spectator.start]
        deadline = time.monotonic() + 15
        while spectator.last < wanted[-1] and time.monotonic() < deadline:
            time.sleep(0.1)
        spectator.stop.set()
        watcher.join(10)
        assert spectator.positions == wanted
    finally:
        code, out, err = serve.stop(signal.SIGINT)
        print(err[-3000:])
    assert code == 0, err
    assert "restarted it" in out
    assert postmasters(data_dir) == []
