"""A real server in a subprocess (uvicorn) on a free port, and a small HTTP client for it."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import socket
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from tableside.db.roles import APP_ROLE
from tableside.db.url import with_user
from tableside.live.socket_auth import MAX_FRAME
from tableside.settings import Settings

from support.forked import Forked, forkable

ADMIN = ("head", "head-secret-1")


# What every test server is started with: the first head judge, and limits tests do not hit.
TEST_SERVER_ENV = {
    "TABLESIDE_ADMIN_USER": ADMIN[0],
    "TABLESIDE_ADMIN_PASSWORD": ADMIN[1],
    "TABLESIDE_COMMAND_RATE": "1000",
    "TABLESIDE_COMMAND_BURST": "1000",
    # Tests log in far more often than people do; test_login_hardening sets its own.
    "TABLESIDE_LOGIN_PER_MINUTE": "1000",
    "TABLESIDE_PDF_PER_MINUTE": "1000",  # test_pdf_rate_limit sets its own
}


def _ephemeral_start() -> int:
    """Where the kernel's ports for outgoing connections begin: every client socket of the
    suite (browsers, spectators, the benches beside it) takes one from there, and a server
    given such a port found it taken by a client by the time it bound (errno 98, under load)."""
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def free_port() -> int:
    """A free loopback port below the kernel's outgoing range, in this pytest worker's own
    share of it (two workers never pick alike), checked free by binding it."""
    top = _ephemeral_start()
    low = 10000 if top > 12000 else 1024
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")
    workers = max(int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")), 1)
    share = (top - low) // workers
    first = low + share * (int(worker) % workers if worker.isdigit() else 0)
    for port in random.sample(range(first, first + share), min(share, 200)):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    with socket.socket() as s:  # every one tried was taken: the kernel's pick, as before
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Server:
    """One `uvicorn --factory tableside.server.asgi:from_env` process."""

    database_url: str
    env: dict[str, str] = field(default_factory=dict)
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen | Forked | None = None
    factory: str = "tableside.server.asgi:from_env"  # another tree may name it otherwise
    args: tuple[str, ...] = ()  # more uvicorn flags
    output: str | None = None  # a file for the server's stdout and stderr (else inherited)
    _started: bool = field(default=False, repr=False)  # answered once (a restart keeps its port)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, retries: int = 3) -> Server:
        env = {
            **os.environ,
            # The server's least-privilege role, as in production (tableside.db.roles).
            "DATABASE_URL": with_user(self.database_url, APP_ROLE),
            "PORT": str(self.port),
            **TEST_SERVER_ENV,
            **self.env,
        }
        cmd = [
            sys.executable,
            "-m",
            "uvicorn",
            "--factory",
            self.factory,
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--log-level",
            "warning",
            # As `tableside serve` bounds it (TABLESIDE_SHUTDOWN_SECONDS): a request stuck past
            # it is cut, so a stop never waits for ever.
            "--timeout-graceful-shutdown",
            "5",
            # As `tableside serve` bounds it: a bigger websocket frame is refused by its header.
            "--ws-max-size",
            str(MAX_FRAME),
            *self.args,
        ]
        if forkable(self.factory, self.env):
            self.proc = Forked(cmd[3:], env, self.output)  # uvicorn's own arguments
        elif self.output is None:
            self.proc = subprocess.Popen(cmd, env=env)
        else:
            with open(self.output, "ab") as out:
                self.proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT)
        if self._answers():
            return self
        code = self.proc.poll()
        self.stop()
        if code is not None and not self._started and retries > 0:
            # It exited before it answered: on its first start, most likely its port was
            # taken between the pick and the bind (errno 98); a restart keeps its port.
            self.port = free_port()
            return self.start(retries - 1)
        raise RuntimeError(f"server did not start (exit code {self.proc.poll()})")

    def _answers(self) -> bool:
        """Until it answers /health or exits: on a loaded 2-core machine start-up alone took
        14-20 s (main, measured with seven suites running), so 20 s failed servers that were
        fine. Another process answering on the port is not this one: it must still run."""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and self.proc.poll() is None:
            try:
                answered = httpx.get(self.base + "/health", timeout=1).status_code == 200
            except httpx.HTTPError:
                answered = False
            if answered and self.proc.poll() is None:
                self._started = True
                return True
            time.sleep(0.05)
        return False

    def stop(self, grace: float = 10) -> None:
        if self.proc and self.proc.poll() is None:
            # SIGINT, uvicorn's other graceful stop: under libfaketime (the no-show tests'
            # moved clock) SIGTERM went unanswered until the 10 s kill
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(grace)
            except subprocess.TimeoutExpired:
                self.proc.kill()

    def kill9(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()


# The client drops an idle connection before uvicorn does (its keep-alive is 5 s, as is httpx's
# by default): a request sent on a connection the server is closing that same moment came back
# as "connection reset by peer" (test_judge_steady, once, under load).
IDLE_CLOSED_FIRST = httpx.Limits(keepalive_expiry=2.0)


class Api:
    """Commands and reads over HTTP with one bearer token."""

    def __init__(self, base: str, token: str | None = None, verify: object = True) -> None:
        # `verify`: an ssl.SSLContext trusting the venue CA for an HTTPS server (issue 40)
        self.http = httpx.Client(base_url=base, timeout=10, limits=IDLE_CLOSED_FIRST, verify=verify)
        self.token = token

    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}

    def login(self, user: str = ADMIN[0], password: str = ADMIN[1]) -> Api:
        r = self.http.post("/api/login", json={"username": user, "password": password})
        r.raise_for_status()
        self.token = r.json()["token"]
        return self

    def create(self, table: int, side_a, side_b, **extra) -> httpx.Response:
        body = {
            "command_id": str(uuid.uuid4()),
            "table": table,
            "side_a": list(side_a),
            "side_b": list(side_b),
            **extra,
        }
        return self.http.post("/api/matches", json=body, headers=self.headers())

    def command(self, match_id, version: int, command: dict, command_id=None) -> httpx.Response:
        body = {
            "command_id": str(command_id or uuid.uuid4()),
            "expected_version": version,
            "command": command,
        }
        return self.http.post(
            f"/api/matches/{match_id}/commands", json=body, headers=self.headers()
        )

    def judge_token(self, table: int) -> dict:
        r = self.http.post(f"/api/tables/{table}/judge-token", headers=self.headers())
        r.raise_for_status()
        return r.json()

    def get(self, path: str, **params) -> httpx.Response:
        return self.http.get(path, params=params, headers=self.headers())


def app_settings(database_url: str, **overrides) -> Settings:
    """Settings for an app a test runs in process: the session's signing key (conftest's
    `checkpoint_key`) and no witness log, as every server the suite starts has. `Settings()`
    alone would sign with a key and log under the checkout's var/, shared by every such test
    and every database: one test's logged checkpoint then reads as another store's."""
    key = Path(os.environ["TABLESIDE_KEY_FILE"])
    return Settings(database_url=database_url, key_file=key, checkpoint_log="off", **overrides)


def wait_for(predicate, timeout: float = 5.0, step: float = 0.02):
    """Poll until predicate() is truthy; return its value or fail."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(step)
    raise AssertionError("condition not met in time")


def run_async(coro):
    """asyncio.run in a thread of its own: works even when this thread has a loop running."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


async def until(predicate, seconds: float, every: float = 0.01) -> bool:
    """Wait (bounded) on the running loop for an async predicate; True when it came."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while loop.time() < deadline:
        if await predicate():
            return True
        await asyncio.sleep(every)
    return False
