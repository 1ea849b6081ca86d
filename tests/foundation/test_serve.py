"""`tableside serve` as a person runs it: a subprocess on a temp data dir and a free port."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
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
from support.harness import free_port

pytestmark = pytest.mark.long  # started first under `make test` (tests/conftest.py)

TABLESIDE = str(Path(sys.executable).with_name("tableside"))


def postmasters(data_dir: Path) -> list[int]:
    """PIDs of postgres server processes started on this data dir.

    A backend the postmaster has just forked carries the postmaster's command line until it
    renames itself, so only processes whose parent is not such a match count as servers.
    """
    found: dict[int, int] = {}
    for proc in psutil.process_iter(["name", "cmdline", "ppid"]):
        cmdline = proc.info["cmdline"] or []
        if proc.info["name"] == "postgres" and str(data_dir) in cmdline:
            found[proc.pid] = proc.info["ppid"]
    return sorted(pid for pid, parent in found.items() if parent not in found)


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class Serve:
    """One `tableside serve` child process."""

    def __init__(self, data_dir: Path, port: int, **env: str) -> None:
        self.port = port
        self.proc = subprocess.Popen(
            [TABLESIDE, "serve", "--port", str(port), "--data-dir", str(data_dir)],
            env={**os.environ, **env},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            # As a shell's background job starts it: SIGINT ignored. Ctrl-C must stop it still.
            preexec_fn=_ignore_sigint,
        )

    def health(self, timeout: float = 60) -> dict[str, object]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(
                    f"serve exited early ({self.proc.returncode}): {self.proc.communicate()}"
                )
            try:
                reply = httpx.get(f"http://127.0.0.1:{self.port}/health", timeout=2)
                return reply.json()
            except httpx.TransportError:
                time.sleep(0.1)
        raise AssertionError("no /health answer")

    def refusal(self) -> str:
        """Wait for a run that must fail; return its stderr (one clear line, no traceback)."""
        _, err = self.proc.communicate(timeout=30)
        assert self.proc.returncode != 0
        assert "Traceback" not in err
        return err

    def stop(self, sig: int = signal.SIGINT) -> tuple[int, str, str]:
        self.proc.send_signal(sig)
        try:
            out, err = self.proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()  # fail without leaving a server behind for the next tests
            raise
        return self.proc.returncode, out, err


@pytest.fixture(scope="module")
def data_dir() -> Iterator[Path]:
    """One data dir for this module: initdb once, each test starts from a stopped server.
    Outside pytest's temp root: the embedded server's system user must reach it, and another
    pytest session starting makes that root private again (0700) under a running server."""
    work = Path(tempfile.mkdtemp(prefix="tableside-serve-"))
    path = work / "pgdata"
    yield path
    for pid in postmasters(path):
        psutil.Process(pid).kill()
    shutil.rmtree(work, ignore_errors=True)


@pytest.fixture
def clean_env() -> dict[str, str]:
    return {"DATABASE_URL": "", "PORT": "", "HOST": ""}


def test_serve_answers_health_and_ctrl_c_stops_postgres(data_dir: Path, clean_env) -> None:
    serve = Serve(data_dir, free_port(), **clean_env, TABLESIDE_ADMIN_USER="")
    body = serve.health()
    assert body["status"] == "ok"
    database = body["database"]
    assert database["reachable"] is True
    assert str(database["server_version"]).startswith("18")
    assert database["schema_version"] >= 4
    code, out, err = serve.stop(signal.SIGINT)
    assert code == 0, err[-3000:]
    assert f"http://127.0.0.1:{serve.port}/health" in out
    # Issue 45: a first start without --demo said nothing of how anyone signs in.
    assert "no staff account yet" in out and "TABLESIDE_ADMIN_USER" in out, out
    assert postmasters(data_dir) == []


def test_after_kill_9_the_next_run_adopts_the_orphan(data_dir: Path, clean_env) -> None:
    first = Serve(data_dir, free_port(), **clean_env)
    first.health()
    orphans = postmasters(data_dir)
    first.proc.kill()
    first.proc.wait()
    assert postmasters(data_dir) == orphans != []
    second = Serve(data_dir, free_port(), **clean_env)
    assert second.health()["status"] == "ok"
    assert postmasters(data_dir) == orphans  # reused, never a second server
    code, out, err = second.stop(signal.SIGTERM)
    assert code == 0, err[-3000:]
    assert f"reusing PostgreSQL (pid {orphans[0]})" in out
    assert postmasters(data_dir) == []


def test_a_second_serve_on_a_busy_data_dir_is_refused(data_dir: Path, clean_env) -> None:
    first = Serve(data_dir, free_port(), **clean_env)
    first.health()
    second = Serve(data_dir, free_port(), **clean_env)
    assert "in use by another tableside process" in second.refusal()
    code, out, err = first.stop()
    assert code == 0, err[-3000:]
    assert postmasters(data_dir) == [], (out[-2000:], err[-3000:])


def test_unreachable_database_url_is_one_line_naming_the_host(tmp_path: Path) -> None:
    url = f"postgresql://tableside@127.0.0.1:{free_port()}/tableside"
    err = Serve(tmp_path / "unused", free_port(), DATABASE_URL=url).refusal()
    assert err.strip().count("\n") == 0, err
    assert "127.0.0.1" in err


def test_port_in_use_is_a_clear_message(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        err = Serve(tmp_path / "unused", port, DATABASE_URL="").refusal()
    assert f"cannot listen on 127.0.0.1:{port}" in err


def test_the_embedded_server_serves_as_its_own_role_and_keeps_the_key_outside(
    data_dir: Path, clean_env
) -> None:
    """First start: tableside_owner owns the tables, the server connects as tableside_app,
    and the checkpoint key is made beside the data dir (0600), not in the database."""
    import psycopg
    from tableside.db.embedded import _postmaster_info

    key = data_dir.parent / "keys" / data_dir.name / "checkpoint-ed25519.pem"
    serve = Serve(data_dir, free_port(), **clean_env, TABLESIDE_KEY_FILE="")
    try:
        serve.health()
        superuser = _postmaster_info(data_dir).get_uri()
        with psycopg.connect(superuser) as conn:
            owner = conn.execute(
                "SELECT pg_get_userbyid(relowner) FROM pg_class WHERE relname = 'stored_events'"
            ).fetchone()
            users = conn.execute(
                "SELECT DISTINCT usename FROM pg_stat_activity"
                " WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()"
                # a connection still authenticating has no user yet (seen once in CI)
                " AND usename IS NOT NULL"
            ).fetchall()
    finally:
        code, out, err = serve.stop(signal.SIGINT)
    assert owner == ("tableside_owner",)
    assert users == [("tableside_app",)]
    assert code == 0 and "warning" not in out, (out[-2000:], err[-3000:])
    assert key.stat().st_mode & 0o777 == 0o600
    from tableside.eventlog.checkpoints import load_or_create_key, public_hex

    assert f"(public key {public_hex(load_or_create_key(key))})" in out
    assert postmasters(data_dir) == []


def _server_side(pid: int, client: socket.socket) -> socket.socket | None:
    """A duplicate of the server process's end of `client`'s connection (pidfd_getfd)."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    pidfd = os.pidfd_open(pid)
    try:
        for name in os.listdir(f"/proc/{pid}/fd"):
            if not os.readlink(f"/proc/{pid}/fd/{name}").startswith("socket:"):
                continue
            fd = libc.syscall(438, pidfd, int(name), 0)  # SYS_pidfd_getfd
            if fd < 0:
                pytest.skip(f"pidfd_getfd refused: errno {ctypes.get_errno()}")
            sock = socket.socket(fileno=fd)
            try:
                if sock.type == socket.SOCK_STREAM and sock.getpeername() == client.getsockname():
                    return sock
            except OSError:
                pass
            sock.close()
    finally:
        os.close(pidfd)
    return None


def test_accepted_connections_have_tcp_nodelay(data_dir: Path, clean_env) -> None:
    """Issue 17: without TCP_NODELAY each response body waits for the client's delayed ACK."""
    serve = Serve(data_dir, free_port(), **clean_env)
    serve.health()
    try:
        with socket.create_connection(("127.0.0.1", serve.port)) as client:
            client.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            assert client.recv(4096).startswith(b"HTTP/1.1 200")
            pids = [serve.proc.pid] + [c.pid for c in psutil.Process(serve.proc.pid).children()]
            found = [s for pid in pids if (s := _server_side(pid, client))]
            assert found, "no server process holds the accepted socket"
            with found[0] as server_end:
                assert server_end.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) == 1
    finally:
        serve.stop()
    assert postmasters(data_dir) == []


def test_workers_die_with_a_killed_parent(data_dir: Path, clean_env) -> None:
    """Issue 17 point 4: `serve --workers 2` killed with SIGKILL leaves no worker serving."""
    serve = Serve(data_dir, free_port(), TABLESIDE_WORKERS="2", **clean_env)
    serve.health()
    kids = psutil.Process(serve.proc.pid).children()
    workers = [w for w in kids if "--multiprocessing-fork" in w.cmdline()]
    try:
        assert len(workers) == 2
    finally:
        serve.proc.kill()
    serve.proc.wait()
    _, alive = psutil.wait_procs(workers, timeout=15)
    assert alive == []
    for pid in postmasters(data_dir):  # the embedded server is adopted by the next run
        psutil.Process(pid).kill()


def _subreaper(on: bool) -> None:
    """Orphans of this process's descendants are re-parented to it (PR_SET_CHILD_SUBREAPER)
    and stay zombies until it reaps them, as under a container's PID 1 that reaps late."""
    import ctypes

    assert ctypes.CDLL(None, use_errno=True).prctl(36, int(on), 0, 0, 0) == 0


def _busy_backend(url: str) -> threading.Thread:
    """A backend busy in a long computation: it notices its postmaster's death only when
    the query ends, and holds the shared memory until then."""
    import psycopg

    started = threading.Event()

    def run() -> None:
        with contextlib.suppress(Exception), psycopg.connect(url) as conn:
            started.set()
            conn.execute("SELECT count(*) FROM generate_series(1, 2000000000)")

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    started.wait(10)
    return thread


@pytest.mark.parametrize("leftover", ["zombie postmaster", "busy backend"])
def test_after_kill_9_of_server_and_postmaster_the_next_start_just_works(
    data_dir: Path, clean_env, leftover: str
) -> None:
    """Issue 32 point 3: server and postmaster killed together (a power cut, the OOM killer
    taking the group): the next `serve` waits for what the dead postmaster left (its pid a
    zombie nobody reaped yet, a backend still busy holding its shared memory), then starts
    PostgreSQL again and serves; one start, no traceback."""
    from tableside.db.embedded import _postmaster_info

    _subreaper(leftover == "zombie postmaster")
    first = Serve(data_dir, free_port(), **clean_env)
    try:
        first.health()
    except AssertionError:
        first.proc.kill()  # the next test must not find the data dir still taken
        raise
    finally:
        _subreaper(False)
    (postmaster,) = postmasters(data_dir)
    if leftover == "busy backend":
        _busy_backend(_postmaster_info(data_dir).get_uri())
    first.proc.kill()
    os.kill(postmaster, signal.SIGKILL)
    first.proc.wait()
    second = Serve(data_dir, free_port(), **clean_env)
    try:
        assert second.health()["status"] == "ok"
    finally:
        code, out, err = second.stop(signal.SIGTERM)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(postmaster, 0)  # ours to reap when we were its subreaper
    assert code == 0 and "Traceback" not in err, (out[-2000:], err[-3000:])
    assert postmasters(data_dir) == []
