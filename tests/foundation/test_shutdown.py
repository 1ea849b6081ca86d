"""SIGTERM stops `tableside serve` within its bound even with requests stuck on a held lock
(issue 28: graceful shutdown waited for them for ever): the stuck requests are cut, answered
503 with Retry-After (issue 46: they answered 500 with a logged traceback), and nothing of
theirs is stored."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import psycopg
from support.harness import ADMIN, Api, free_port, wait_for
from tableside.competition.hall import HALL_LOCK
from tableside.db import roles
from tableside.db.url import with_user

TABLESIDE = str(Path(sys.executable).with_name("tableside"))
SHUTDOWN = 2.0  # TABLESIDE_SHUTDOWN_SECONDS of the server under test
# Requests cut at SHUTDOWN, then the lifespan closes the pools (each close bounded as well).
EXIT_WITHIN = SHUTDOWN + 6.0
_WAITING = """
SELECT count(*) FROM pg_stat_activity
WHERE datname = current_database() AND wait_event_type = 'Lock'
  AND query LIKE '%pg_advisory_xact_lock%'
"""


def test_sigterm_with_requests_stuck_on_a_lock_exits_within_the_bound(
    database_url: str, tmp_path: Path
) -> None:
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": with_user(database_url, roles.APP_ROLE),
        "TABLESIDE_MIGRATE_URL": with_user(database_url, roles.OWNER_ROLE),
        "TABLESIDE_WORKERS": "1",
        "TABLESIDE_ADMIN_USER": ADMIN[0],
        "TABLESIDE_ADMIN_PASSWORD": ADMIN[1],
        "TABLESIDE_SHUTDOWN_SECONDS": str(SHUTDOWN),
        "TABLESIDE_DB_LOCK_SECONDS": "120",  # the lock would hold them far past the bound
        "TABLESIDE_DB_ACQUIRE_SECONDS": "120",
        "TABLESIDE_CHECKPOINT_MINUTES": "0",
    }
    args = [TABLESIDE, "serve", "--port", str(port), "--data-dir", str(tmp_path / "pgdata")]
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=out)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: _healthy(base, proc), timeout=30, step=0.1)
        staff = Api(base).login()
        command_ids = [str(uuid.uuid4()) for _ in range(3)]
        with psycopg.connect(database_url, autocommit=True) as holder:
            holder.execute("SELECT pg_advisory_lock(%s)", (HALL_LOCK,))
            with ThreadPoolExecutor(len(command_ids)) as pool:
                stuck = [
                    pool.submit(_create, staff, table, command_id)
                    for table, command_id in enumerate(command_ids, 1)
                ]
                wait_for(lambda: holder.execute(_WAITING).fetchone()[0] >= 1, timeout=10)
                proc.send_signal(signal.SIGTERM)
                sent = time.monotonic()
                try:
                    proc.wait(EXIT_WITHIN)
                except subprocess.TimeoutExpired:
                    raise AssertionError(f"still running {EXIT_WITHIN} s after SIGTERM") from None
                took = time.monotonic() - sent
                answers = [f.result() for f in stuck]
            assert took < EXIT_WITHIN
            assert answers == [(503, "2")] * len(command_ids), answers
            stored = holder.execute(
                "SELECT count(*) FROM stored_events WHERE command_id = ANY(%s::uuid[])",
                (command_ids,),
            ).fetchone()[0]
            assert stored == 0, "a cut request stored something"
            assert holder.execute(_WAITING).fetchone()[0] == 0  # nothing left waiting
        assert "Traceback" not in log.read_text(), log.read_text()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def _healthy(base: str, proc: subprocess.Popen) -> bool:
    assert proc.poll() is None, "serve exited early"
    try:
        return httpx.get(base + "/health", timeout=2).status_code == 200
    except httpx.TransportError:
        return False


def _create(staff: Api, table: int, command_id: str) -> tuple[int, str | None] | str:
    """A walk-up match on `table`: its status and Retry-After, or the error that cut it."""
    body = {"command_id": command_id, "table": table, "side_a": ["A"], "side_b": ["B"]}
    try:
        r = staff.http.post("/api/matches", json=body, headers=staff.headers(), timeout=60)
    except httpx.HTTPError as exc:
        return type(exc).__name__
    return r.status_code, r.headers.get("retry-after")
