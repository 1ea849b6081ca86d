"""Issue 33: the record outlives the venue laptop. A primary (`tableside serve --replication`)
and a standby (`tableside standby`), two embedded PostgreSQL servers and two `tableside`
processes on one machine; four judges post strokes over HTTP, each client knowing both
addresses. The standby drops: the primary goes on alone, saying so, until it is back. The
primary is killed with -9 (server and PostgreSQL) and its data dir removed;
`tableside promote` makes the standby the primary and it serves; the judges carry on there.
Every acknowledged command is in the promoted store exactly once, and `tableside audit
verify` there agrees with the last checkpoint the old primary signed."""

from __future__ import annotations

import json
import os
import subprocess
import threading
import time
import uuid
from pathlib import Path

import httpx
import psycopg
import pytest
from support.harness import ADMIN
from support.standby import ENV, TABLESIDE, health, primary_and_standby, wait
from tableside.db.embedded import running_url

pytestmark = pytest.mark.long  # started first under `make test` (tests/conftest.py)


class Judge:
    """Posts strokes on its own table's match, each retried under its command_id until some
    server stores it; a server that does not answer sends it to the other address."""

    def __init__(self, bases: list[str], table: int) -> None:
        self.bases, self.at = bases, 0
        self.http = httpx.Client(timeout=10)
        self.table = table
        self.acked: list[tuple[str, list[int], str]] = []  # command_id, positions, server
        self.stop = threading.Event()
        token = self._send("POST", "/api/login", {"username": ADMIN[0], "password": ADMIN[1]})
        self.http.headers["Authorization"] = f"Bearer {token.json()['token']}"

    def open_match(self) -> None:
        body = {"command_id": str(uuid.uuid4()), "table": self.table, "side_a": ["a"]}
        r = self._send("POST", "/api/matches", {**body, "side_b": ["b"]})
        assert r.status_code == 201, r.text
        self.match, self.version, self.turn = r.json()["match_id"], r.json()["last_version"], "a"
        self._post({"type": "AssignOpeningShot", "method": "lot", "lot_winner": "A"})

    def run(self) -> None:
        while not self.stop.is_set():
            self._post({"type": "RecordStroke", "player": self.turn, "facts": {}})
            self.turn = "b" if self.turn == "a" else "a"

    def on(self, base: str) -> int:
        return sum(1 for *_, server in self.acked if server == base)

    def _post(self, command: dict) -> None:
        command_id = str(uuid.uuid4())
        body = {"command_id": command_id, "expected_version": self.version, "command": command}
        r = self._send("POST", f"/api/matches/{self.match}/commands", body)
        assert r.status_code == 201, r.text
        self.version = r.json()["last_version"]
        self.acked.append((command_id, r.json()["positions"], self.bases[self.at]))

    def _send(self, method: str, path: str, body: dict) -> httpx.Response:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                r = self.http.request(method, self.bases[self.at] + path, json=body)
            except httpx.TransportError:
                self.at = (self.at + 1) % len(self.bases)  # the other server
                time.sleep(0.05)
                continue
            if r.status_code != 503:
                return r
            time.sleep(0.1)
        raise AssertionError(f"no server stored {path} within 120 s")


def test_the_standby_is_promoted_and_every_acknowledged_command_is_there_once() -> None:
    with primary_and_standby() as pair:
        bases = pair.bases
        password = json.loads(pair.credentials.read_text())["password"]
        assert oct(pair.credentials.stat().st_mode & 0o777) == "0o600"
        csp = httpx.get(bases[0] + "/").headers["content-security-policy"]
        assert f"connect-src 'self' {bases[1]} {bases[1].replace('http', 'ws')}" in csp
        judges = [Judge(bases, table) for table in (1, 2, 3, 4)]
        for judge in judges:
            judge.open_match()
        posters = [threading.Thread(target=judge.run) for judge in judges]
        for poster in posters:
            poster.start()
        try:
            wait(lambda: all(j.on(bases[0]) >= 10 for j in judges), "strokes on the primary")
            # The standby drops: the primary goes on alone and says so; it comes back.
            pair.standby.stop()
            wait(lambda: not health(bases[0])["replication"]["protected"], "unprotected")
            alone = sum(j.on(bases[0]) for j in judges)
            wait(lambda: sum(j.on(bases[0]) for j in judges) >= alone + 20, "strokes alone")
            assert "NO STANDBY" in health(bases[0])["replication"]["warning"]
            said = pair.primary.output
            wait(lambda: said().count("NO STANDBY") >= 2, "the drop said")  # start, then drop
            pair.start_standby()
            wait(lambda: health(bases[0])["replication"]["protected"], "the standby back")
            protected = sum(j.on(bases[0]) for j in judges)
            wait(lambda: sum(j.on(bases[0]) for j in judges) >= protected + 20, "strokes synced")
            signed = httpx.get(bases[0] + "/api/checkpoints/latest").json()
            assert signed["position"] > 0
            pair.kill_primary()
            pair.promote()
            wait(lambda: all(j.on(bases[1]) >= 15 for j in judges), "strokes after promotion")
        finally:
            for judge in judges:
                judge.stop.set()
            for poster in posters:
                poster.join(60)
        replication = health(bases[1])["replication"]
        assert replication["protected"] is False and "NO STANDBY" in replication["warning"]
        assert "NO STANDBY" in pair.standby.output()
        for log in (pair.primary.output(), pair.standby.output(), *_logs(pair.work)):
            assert password not in log
        _every_acknowledged_command_once(running_url(pair.dirs[1]), judges)
        checkpoint = pair.work / "signed.json"
        signed.pop("short_hash")  # the public route's convenience, not part of a checkpoint
        checkpoint.write_text(json.dumps(signed))
        verified = subprocess.run(
            [TABLESIDE, "audit", "verify", "--data-dir", str(pair.dirs[1]),
             "--checkpoint", str(checkpoint)],
            capture_output=True, text=True, timeout=120, env={**os.environ, **ENV},
        )  # fmt: skip
        assert verified.returncode == 0, verified.stdout + verified.stderr
        assert "ok:" in verified.stdout and "checkpoints reached" in verified.stdout


def _logs(work: Path) -> list[str]:
    return [log.read_text() for log in work.glob("*.log")]


def _every_acknowledged_command_once(url: str, judges: list[Judge]) -> None:
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT command_id::text, array_agg(notification_id ORDER BY notification_id)"
            " FROM stored_events GROUP BY command_id"
        ).fetchall()
    stored = dict(rows)
    acked = [entry for judge in judges for entry in judge.acked]
    assert len({command_id for command_id, *_ in acked}) == len(acked)
    for command_id, positions, _ in acked:
        assert stored[command_id] == positions
