"""A primary and a standby on one machine (issue 33): two `tableside` processes, two
embedded PostgreSQL servers, each naming the other as its peer; the primary killed as a
laptop dies; the standby promoted. Shared by tests/foundation/test_standby.py and
tests/browser/test_failover.py."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import psutil

from support.harness import ADMIN, free_port

TABLESIDE = str(Path(sys.executable).with_name("tableside"))
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

    def wait_for(self, text: str, timeout: float = 90) -> None:
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


@dataclass
class Pair:
    """The two servers: `bases[0]` the primary's, `bases[1]` the standby's."""

    work: Path
    bases: list[str]
    dirs: list[Path]
    primary: Process
    standby: Process
    credentials: Path
    standby_args: tuple[str, ...] = ()
    standby_env: dict[str, str] | None = None

    def start_standby(self) -> None:
        """`tableside standby` again on the copy it has: it streams on from where it was."""
        self.standby = Process(self.work, "standby-again", *self.standby_args, **self.standby_env)
        self.standby.wait_for("standby: streaming")

    def kill_primary(self) -> None:
        """The laptop dies: its server and its PostgreSQL at once; its disk with them."""
        victims = [psutil.Process(self.primary.proc.pid)]
        victims += [psutil.Process(pid) for pid in postmasters(self.dirs[0])]
        for victim in victims:
            victim.send_signal(signal.SIGKILL)
        for victim in victims:
            victim.wait(10)
        shutil.rmtree(self.dirs[0].parent)

    def promote(self) -> None:
        """`tableside promote` on the standby; returns once it serves."""
        done = subprocess.run(
            [TABLESIDE, "promote", "--data-dir", str(self.dirs[1])],
            capture_output=True,
            text=True,
            timeout=90,
        )
        assert done.returncode == 0, done.stderr
        self.standby.wait_for("Press Ctrl-C")


@contextmanager
def primary_and_standby() -> Iterator[Pair]:
    """Start both (the standby attached, commits synchronous); stop and remove both after."""
    work = Path(tempfile.mkdtemp(prefix="tableside-standby-"))  # outside pytest's 0700 root
    work.chmod(0o755)
    ports = [free_port() for _ in range(4)]
    bases = [f"http://127.0.0.1:{ports[0]}", f"http://127.0.0.1:{ports[1]}"]
    dirs = [work / "primary" / "pgdata", work / "standby" / "pgdata"]
    primary = Process(
        work, "primary", "serve", "--workers", "1", "--port", str(ports[0]),
        "--data-dir", str(dirs[0]), "--replication", f"127.0.0.1:{ports[2]}",
        TABLESIDE_PEERS=bases[1],
    )  # fmt: skip
    standby, pair = None, None
    try:
        primary.wait_for("Press Ctrl-C")
        credentials = work / "primary" / "replication" / "standby-credentials.json"
        args = (
            "standby", "--workers", "1", "--port", str(ports[1]),
            "--primary", f"127.0.0.1:{ports[2]}", "--credentials", str(credentials),
            "--data-dir", str(dirs[1]), "--replication", f"127.0.0.1:{ports[3]}",
        )  # fmt: skip
        peers = {"TABLESIDE_PEERS": bases[0]}
        standby = Process(work, "standby", *args, **peers)
        standby.wait_for("standby: streaming")
        wait(lambda: health(bases[0])["replication"]["protected"], "a synchronous standby")
        pair = Pair(work, bases, dirs, primary, standby, credentials, args, peers)
        yield pair
    finally:
        for proc in (pair.standby if pair else standby, primary):
            if proc is not None:
                proc.stop()
        for data in dirs:
            for pid in postmasters(data):
                psutil.Process(pid).kill()
        shutil.rmtree(work, ignore_errors=True)


def postmasters(data_dir: Path) -> list[int]:
    """PIDs of postgres servers started on this data dir (not their backends)."""
    found: dict[int, int] = {}
    for proc in psutil.process_iter(["name", "cmdline", "ppid"]):
        cmdline = proc.info["cmdline"] or []
        if proc.info["name"] == "postgres" and str(data_dir) in cmdline:
            found[proc.pid] = proc.info["ppid"]
    return sorted(pid for pid, parent in found.items() if parent not in found)


def health(base: str) -> dict:
    return httpx.get(base + "/health", timeout=5).json()


def wait(predicate, what: str, timeout: float = 90) -> None:
    """Until `predicate()` holds (bounded: fails naming `what`)."""
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"waited {timeout} s for {what}"
        time.sleep(0.1)
