"""`tableside serve`: database (embedded unless DATABASE_URL), migrations, then the web app."""

from __future__ import annotations

import argparse
import signal
import socket
import sys
from pathlib import Path

# /live is uncompressed (docs/decisions.md, "Live at scale"): one encoded frame for every
# spectator; per-message deflate would compress the same bytes once per socket.
UVICORN = {
    "log_level": "warning",
    "lifespan": "on",
    "ws_per_message_deflate": False,
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Flags: --demo, --host, --port, --data-dir (env: HOST, PORT, TABLESIDE_DATA_DIR)."""
    parser.add_argument("--demo", action="store_true", help="load a demo competition")
    parser.add_argument("--host", help="address to listen on (default 127.0.0.1, env HOST)")
    parser.add_argument("--port", type=int, help="port to listen on (default 8000, env PORT)")
    parser.add_argument("--data-dir", type=Path, help="embedded PostgreSQL data dir")


def run(args: argparse.Namespace) -> int:
    """Serve until Ctrl-C or SIGTERM; the embedded server stops with us."""
    from tableside.db.migrations import MigrationError
    from tableside.db.runtime import StartupError
    from tableside.settings import Settings, SettingsError

    # SIGTERM must unwind like Ctrl-C so the embedded PostgreSQL is stopped on the way out.
    signal.signal(signal.SIGTERM, _exit_on_signal)
    try:
        settings = Settings.from_env().replace(
            host=args.host, port=args.port, data_dir=args.data_dir
        )
        listener = _bind(settings.host, settings.port)
        return _serve(settings, listener, demo=args.demo)
    except (StartupError, SettingsError, MigrationError) as exc:
        print(f"tableside: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0


def _serve(settings, listener: socket.socket, *, demo: bool) -> int:
    import uvicorn

    from tableside.app import create_app
    from tableside.db import migrations
    from tableside.db.runtime import database

    with database(settings) as db:
        if db.adopted_pid is not None:
            print(f"reusing PostgreSQL (pid {db.adopted_pid}) left running by an earlier run")
        applied = migrations.apply(db.url)
        app = create_app(settings.replace(database_url=db.url, demo=demo or None))
        _announce(settings, db.label, len(applied), demo=demo)
        config = uvicorn.Config(app, **UVICORN)
        uvicorn.Server(config).run(sockets=[listener])
    return 0


def _announce(settings, label: str, applied: int, *, demo: bool) -> None:
    base = f"http://{settings.host}:{settings.port}"
    print(f"database: PostgreSQL {label} ({applied} migrations applied now)")
    if demo:
        print(f"demo: {base}/ plays a demo cup on 4 tables; judge links follow")
    print(f"Tableside is serving on {base}/")
    print(f"  health: {base}/health")
    print("Press Ctrl-C to stop.", flush=True)


def _bind(host: str, port: int) -> socket.socket:
    from tableside.db.runtime import StartupError

    # IPPROTO_TCP, not 0: asyncio sets TCP_NODELAY only on sockets whose protocol says TCP,
    # and without it every response's body waits ~40 ms for the client's delayed ACK.
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((host, port))
    except OSError as exc:
        listener.close()
        raise StartupError(
            f"cannot listen on {host}:{port}: {exc.strerror} "
            "(is another server running? choose another --port)"
        ) from None
    listener.listen(_backlog())
    listener.set_inheritable(True)
    return listener


def _backlog(wanted: int = 2048) -> int:
    """A listen backlog that fits a hall connecting at once, capped by the kernel's limit."""
    try:
        return min(wanted, int(Path("/proc/sys/net/core/somaxconn").read_text()))
    except (OSError, ValueError):
        return wanted


def _exit_on_signal(signum: int, frame: object) -> None:
    raise KeyboardInterrupt
