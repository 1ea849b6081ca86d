"""`make run` (issue 49, point 7): `tableside serve --demo --federation local` starts a
federation beside the demo venue (its own embedded PostgreSQL), prints its URL, the demo
enrols and publishes to it; stopping the venue stops the federation and both PostgreSQLs."""

from __future__ import annotations

import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import psutil
import pytest
from foundation.test_serve import postmasters
from support.harness import free_port, wait_for

TABLESIDE = str(Path(sys.executable).with_name("tableside"))


def lines_of(proc: subprocess.Popen) -> queue.Queue:
    found: queue.Queue = queue.Queue()

    def read() -> None:
        for line in proc.stdout:
            found.put(line)

    threading.Thread(target=read, daemon=True).start()
    return found


def federation_url(found: queue.Queue, seconds: float = 120) -> str:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            line = found.get(timeout=1)
        except queue.Empty:
            continue
        if match := re.match(r"federation: (http://127\.0\.0\.1:\d+)/ \(the demo publishes", line):
            return match.group(1)
    raise AssertionError("no federation URL printed")


def published(base: str) -> bool:
    try:
        venues = httpx.get(f"{base}/api/federation/venues", timeout=2).json()
    except httpx.HTTPError:
        return False
    return any(v["name"] == "Demo venue" and v["position"] > 0 for v in venues)


@pytest.fixture
def work() -> Iterator[Path]:
    """The folder `make run` runs in, outside pytest's temp root (as tests/foundation/
    test_serve.py's data dir: the embedded server's system user must reach it); what it
    started is stopped."""
    folder = Path(tempfile.mkdtemp(prefix="tableside-run-"))
    yield folder
    for data_dir in (folder / "var" / "pgdata", folder / "var" / "federation" / "pgdata"):
        for pid in postmasters(data_dir):
            psutil.Process(pid).kill()
    shutil.rmtree(folder, ignore_errors=True)


def test_make_run_starts_a_local_federation_the_demo_publishes_to(work: Path) -> None:
    tmp_path = work
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    port = free_port()
    cmd = [TABLESIDE, "serve", "--demo", "--federation", "local", "--port", str(port)]
    proc = subprocess.Popen(
        [*cmd, "--workers", "1"], cwd=tmp_path, env=env, stdout=subprocess.PIPE, text=True
    )
    try:
        base = federation_url(lines_of(proc))
        wait_for(lambda: published(base), timeout=120, step=0.5)
        health = httpx.get(f"http://127.0.0.1:{port}/health", timeout=5).json()
        assert health["federation"]["federation"] == base, health
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(90)
    # both servers stopped with the venue (a loaded machine's stop may still be finishing)
    for data_dir in (tmp_path / "var" / "pgdata", tmp_path / "var" / "federation" / "pgdata"):
        wait_for(lambda d=data_dir: postmasters(d) == [], timeout=60, step=0.2)
