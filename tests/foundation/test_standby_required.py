"""TABLESIDE_STANDBY_REQUIRED with no standby (issue 46): on main the server printed "serving"
and answered nothing — not /health — for 10 min, every commit waiting in PostgreSQL for a
standby that was not there. Now it serves: /health says no standby, reads answer, a login
works, and a write is refused at once with 503 "No standby" + Retry-After, nothing stored."""

from __future__ import annotations

import shutil
import tempfile
import time
import uuid
from pathlib import Path

import httpx
import psutil
import pytest
from support.harness import ADMIN, free_port
from support.standby import Process, postmasters

pytestmark = pytest.mark.long  # an embedded PostgreSQL of its own, started first

ACQUIRE = 2.0  # TABLESIDE_DB_ACQUIRE_SECONDS: the most a command may wait
# What a client waits, at most: the bound, and room for a loaded 2-core machine (the refusal
# itself waits for nothing; on main these requests waited 10 min and more).
ANSWERED_WITHIN = ACQUIRE + 4.0


@pytest.fixture(scope="module")
def required() -> str:
    """`tableside serve --replication` requiring a standby, and none ever attached."""
    work = Path(tempfile.mkdtemp(prefix="tableside-required-"))  # outside pytest's 0700 root
    work.chmod(0o755)
    port, data = free_port(), work / "pgdata"
    server = Process(
        work, "primary", "serve", "--workers", "1", "--port", str(port),
        "--data-dir", str(data), "--replication", f"127.0.0.1:{free_port()}",
        TABLESIDE_STANDBY_REQUIRED="1", TABLESIDE_DB_ACQUIRE_SECONDS=str(ACQUIRE),
    )  # fmt: skip
    try:
        server.wait_for("Press Ctrl-C")
        yield f"http://127.0.0.1:{port}"
    finally:
        server.stop()
        for pid in postmasters(data):
            psutil.Process(pid).kill()
        shutil.rmtree(work, ignore_errors=True)


def _answer(base: str, method: str, path: str, **kw) -> tuple[httpx.Response, float]:
    start = time.monotonic()
    reply = httpx.request(method, base + path, timeout=30, **kw)
    return reply, time.monotonic() - start


def test_health_answers_and_says_there_is_no_standby(required: str) -> None:
    deadline = time.monotonic() + 30
    while True:  # the watch's first look at replication comes within a second or so
        reply, took = _answer(required, "GET", "/health")
        replication = reply.json().get("replication")
        if replication or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert took < ANSWERED_WITHIN, took
    assert replication["standby_required"] is True and replication["standby_attached"] is False
    assert "NO STANDBY" in replication["warning"]


def test_reads_answer(required: str) -> None:
    reply, took = _answer(required, "GET", "/api/hall")
    assert reply.status_code == 200 and took < ANSWERED_WITHIN, (reply.status_code, took)


def test_a_write_is_refused_within_the_acquire_bound(required: str) -> None:
    login, took = _answer(
        required, "POST", "/api/login", json={"username": ADMIN[0], "password": ADMIN[1]}
    )
    assert login.status_code == 201 and took < ANSWERED_WITHIN, (login.text, took)
    auth = {"Authorization": f"Bearer {login.json()['token']}"}
    command_id = str(uuid.uuid4())
    body = {"command_id": command_id, "table": 3, "side_a": ["Mari"], "side_b": ["Jaan"]}
    reply, took = _answer(required, "POST", "/api/matches", json=body, headers=auth)
    assert took < ANSWERED_WITHIN, took
    assert reply.status_code == 503, reply.text
    assert reply.headers["retry-after"] and reply.json()["code"] == "no_standby"
    assert reply.json()["title"] == "No standby"
    lookup = httpx.get(f"{required}/api/matches", headers=auth, timeout=30)
    assert command_id not in lookup.text


def test_a_logout_is_no_record_and_answers(required: str) -> None:
    """#50: logout was refused 503 like a write of the record, so a head judge could not end
    a session while the standby was missing; it is no record (as a login is not)."""
    login, _ = _answer(
        required, "POST", "/api/login", json={"username": ADMIN[0], "password": ADMIN[1]}
    )
    auth = {"Authorization": f"Bearer {login.json()['token']}"}
    reply, took = _answer(required, "POST", "/api/logout", headers=auth)
    assert reply.status_code == 204 and took < ANSWERED_WITHIN, (reply.text, took)
    again = httpx.get(f"{required}/api/whoami", headers=auth, timeout=30)
    assert again.status_code == 401, again.text
