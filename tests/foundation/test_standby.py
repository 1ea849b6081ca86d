"""Issue 33: the record outlives the venue laptop. A primary (`tableside serve --replication`)
and a standby (`tableside standby`), two embedded PostgreSQL servers and two `tableside`
processes on one machine; four judges post strokes over HTTP, each client knowing both
addresses. The primary is killed with -9 (server and PostgreSQL) and its data dir removed;
`tableside promote` makes the standby the primary and it serves; the judges carry on there.
Every acknowledged command is in the promoted store exactly once, and `tableside audit
verify` there agrees with the last checkpoint the old primary signed."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
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
from tableside.db.embedded import running_url
from test_serve import free_port, postmasters

pytestmark = pytest.mark.long  # started first under `make test` (tests/conftest.py)

TABLESIDE = str(Path(sys.executable).with_name("tableside"))
ADMIN = ("head", "head-secret-1")
ENV = {
    "DATABASE_URL": "",
    "HOST": "",
    "TABLESIDE_ADMIN_USER": ADMIN[0],
    "TABLESIDE_ADMIN_PASSWORD": ADMIN[1],
    "TABLESIDE_COMMAND_RATE": "1000",
    "TABLESIDE_COMMAND_BURST": "1000",
    "TABLESIDE_CHECKPOINT_MINUTES": "0.02",  # a signed checkpoint every 1.2 s of new events
}


class Process:
    """A `tableside` child process, its output kept in a file."""

    def __init__(self, work: Path, name: str, *args: str, **env: str) -> None:
        self.log = work / f"{name}.log"
        with self.log.open("w") as out:
            self.proc = subprocess.Popen(
                [TABLESIDE, *args], env={**os.environ, **ENV, **env}, stdout=out, stderr=out
            )

    def output(self) -> str:
        return self.log.read_text()

    def wait_for(self, text: str, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.output():
            assert self.proc.poll() is None, self.output()
            assert time.monotonic() < deadline, f"no {text!r} in:\n{self.output()}"
            time.sleep(0.1)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()


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


@pytest.fixture
def work() -> Iterator[Path]:
    """Outside pytest's temp root: the embedded servers' system user must reach it."""
    path = Path(tempfile.mkdtemp(prefix="tableside-standby-"))
    path.chmod(0o755)
    yield path
    for data in (path / "primary" / "pgdata", path / "standby" / "pgdata"):
        for pid in postmasters(data):
            psutil.Process(pid).kill()
    shutil.rmtree(path, ignore_errors=True)


def test_the_standby_is_promoted_and_every_acknowledged_command_is_there_once(
    work: Path,
) -> None:
    ports = [free_port() for _ in range(4)]
    bases = [f"http://127.0.0.1:{ports[0]}", f"http://127.0.0.1:{ports[1]}"]
    primary_dir, standby_dir = work / "primary" / "pgdata", work / "standby" / "pgdata"
    primary = Process(
        work, "primary", "serve", "--workers", "1", "--port", str(ports[0]),
        "--data-dir", str(primary_dir), "--replication", f"127.0.0.1:{ports[2]}",
        TABLESIDE_PEERS=bases[1],
    )  # fmt: skip
    standby = None
    judges: list[Judge] = []
    posters: list[threading.Thread] = []
    try:
        primary.wait_for("Press Ctrl-C")
        credentials = work / "primary" / "replication" / "standby-credentials.json"
        assert oct(credentials.stat().st_mode & 0o777) == "0o600"
        password = json.loads(credentials.read_text())["password"]
        standby = Process(
            work, "standby", "standby", "--workers", "1", "--port", str(ports[1]),
            "--primary", f"127.0.0.1:{ports[2]}", "--credentials", str(credentials),
            "--data-dir", str(standby_dir), "--replication", f"127.0.0.1:{ports[3]}",
            TABLESIDE_PEERS=bases[0],
        )  # fmt: skip
        standby.wait_for("standby: streaming")
        _wait(lambda: _health(bases[0])["replication"]["protected"], "a synchronous standby")
        judges = [Judge(bases, table) for table in (1, 2, 3, 4)]
        for judge in judges:
            judge.open_match()
        posters = [threading.Thread(target=judge.run) for judge in judges]
        for poster in posters:
            poster.start()
        _wait(lambda: all(j.on(bases[0]) >= 15 for j in judges), "strokes on the primary")
        signed = httpx.get(bases[0] + "/api/checkpoints/latest").json()
        assert signed["position"] > 0

        _kill_9(primary, primary_dir)
        shutil.rmtree(primary_dir.parent)
        promoted = subprocess.run(
            [TABLESIDE, "promote", "--data-dir", str(standby_dir)],
            capture_output=True, text=True, timeout=90,
        )  # fmt: skip
        assert promoted.returncode == 0, promoted.stderr
        standby.wait_for("Press Ctrl-C")
        _wait(lambda: all(j.on(bases[1]) >= 15 for j in judges), "strokes on the promoted one")
    finally:
        for judge in judges:
            judge.stop.set()
        for poster in posters:
            poster.join(60)
    try:
        health = _health(bases[1])
        assert (
            health["replication"]["protected"] is False
            and "NO STANDBY" in health["replication"]["warning"]
        )
        assert "NO STANDBY" in standby.output()
        for log in (primary.output(), standby.output()):
            assert password not in log
        _every_acknowledged_command_once(running_url(standby_dir), judges)
        checkpoint = work / "signed.json"
        signed.pop("short_hash")  # the public route's convenience, not part of a checkpoint
        checkpoint.write_text(json.dumps(signed))
        verified = subprocess.run(
            [TABLESIDE, "audit", "verify", "--data-dir", str(standby_dir),
             "--checkpoint", str(checkpoint)],
            capture_output=True, text=True, timeout=120, env={**os.environ, **ENV},
        )  # fmt: skip
        assert verified.returncode == 0, verified.stdout + verified.stderr
        assert "ok:" in verified.stdout and "checkpoints reached" in verified.stdout
    finally:
        if standby is not None:
            standby.stop()
        primary.stop()


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


def _kill_9(primary: Process, data_dir: Path) -> None:
    """The laptop dies: its server and its PostgreSQL, at once."""
    victims = [psutil.Process(primary.proc.pid), *map(psutil.Process, postmasters(data_dir))]
    for victim in victims:
        victim.send_signal(signal.SIGKILL)
    for victim in victims:
        victim.wait(10)


def _health(base: str) -> dict:
    return httpx.get(base + "/health", timeout=5).json()


def _wait(predicate, what: str, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"waited {timeout} s for {what}"
        time.sleep(0.1)
