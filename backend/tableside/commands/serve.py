"""`tableside serve`: database (embedded unless DATABASE_URL), migrations, then the web app."""

from __future__ import annotations

import argparse
import contextlib
import signal
import socket
import sys
import threading
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Flags: --demo, --host, --port, --data-dir (env: HOST, PORT, TABLESIDE_DATA_DIR)."""
    parser.add_argument("--demo", action="store_true", help="load a demo competition")
    parser.add_argument("--host", help="address to listen on (default 127.0.0.1, env HOST)")
    parser.add_argument("--port", type=int, help="port to listen on (default 8000, env PORT)")
    parser.add_argument("--data-dir", type=Path, help="embedded PostgreSQL data dir")
    parser.add_argument(
        "--key-file", type=Path, help="checkpoint signing key (env TABLESIDE_KEY_FILE)"
    )


def run(args: argparse.Namespace) -> int:
    """Serve until Ctrl-C or SIGTERM; the embedded server stops with us."""
    from tableside.db.migrations import MigrationError
    from tableside.db.runtime import StartupError
    from tableside.settings import Settings, SettingsError
    from tableside.store.checkpoints import CheckpointError

    # SIGTERM must unwind like Ctrl-C so the embedded PostgreSQL is stopped on the way out.
    signal.signal(signal.SIGTERM, _exit_on_signal)
    try:
        settings = Settings.from_env().replace(
            host=args.host, port=args.port, data_dir=args.data_dir, key_file=args.key_file
        )
        listener = _bind(settings.host, settings.port)
        return _serve(settings, listener, demo=args.demo)
    except (StartupError, SettingsError, MigrationError, CheckpointError) as exc:
        print(f"tableside: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0


def _serve(settings, listener: socket.socket, *, demo: bool) -> int:
    import uvicorn

    from tableside.app import create_app
    from tableside.db import migrations
    from tableside.db.runtime import database
    from tableside.store.checkpoints import load_or_create_key, public_hex

    with database(settings) as db:
        if db.adopted_pid is not None:
            print(f"reusing PostgreSQL (pid {db.adopted_pid}) left running by an earlier run")
        applied = migrations.apply(db.migrate_url, app_role=db.app_role)
        key = load_or_create_key(settings.signing_key_path)  # made here on first start
        app = create_app(settings.replace(database_url=db.url, demo=demo or None))
        _announce(settings, db.label, len(applied), demo=demo)
        print(f"checkpoints: signed by {settings.signing_key_path} (public key {public_hex(key)})")
        _warn_if_privileged(db.url)
        config = uvicorn.Config(app, log_level="warning", lifespan="on")
        with _kept_alive(db.embedded):
            uvicorn.Server(config).run(sockets=[listener])
    return 0


@contextlib.contextmanager
def _kept_alive(server, every: float = 0.5):
    """While serving, restart an embedded PostgreSQL that died (the app's pools, its LISTEN
    and its runners reconnect by themselves; requests get 503 meanwhile)."""
    if server is None:
        yield
        return
    done = threading.Event()

    def keep() -> None:
        while not done.wait(every):
            try:
                if server.revive():
                    print("the embedded PostgreSQL had stopped; restarted it", flush=True)
            except Exception as exc:  # old backends still exiting: try again next round
                print(f"restarting the embedded PostgreSQL failed ({exc}); retrying", flush=True)

    thread = threading.Thread(target=keep, name="embedded-postgres-keeper", daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()


def _announce(settings, label: str, applied: int, *, demo: bool) -> None:
    base = f"http://{settings.host}:{settings.port}"
    print(f"database: PostgreSQL {label} ({applied} migrations applied now)")
    if demo:
        print(f"demo: {base}/ runs a demo Swiss on tables 1–4, table 5 is yours; links follow")
    print(f"Tableside is serving on {base}/")
    print(f"  health: {base}/health")
    print("Press Ctrl-C to stop.", flush=True)


def _warn_if_privileged(url: str) -> None:
    """Say so when the server's own role could rewrite history (README: Configuration)."""
    import psycopg

    from tableside.db.roles import can_rewrite_history

    with psycopg.connect(url) as conn:
        reason = can_rewrite_history(conn)
    if reason:
        print(
            f"warning: the server's database role {reason}, so it could rewrite stored events;"
            " give it a role of its own (DATABASE_URL) and the owner's to TABLESIDE_MIGRATE_URL"
            " (README: Configuration, `tableside migrate --print-grants`)",
            flush=True,
        )


def _bind(host: str, port: int) -> socket.socket:
    from tableside.db.runtime import StartupError

    listener = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((host, port))
    except OSError as exc:
        listener.close()
        raise StartupError(
            f"cannot listen on {host}:{port}: {exc.strerror} "
            "(is another server running? choose another --port)"
        ) from None
    listener.listen(128)
    listener.set_inheritable(True)
    return listener


def _exit_on_signal(signum: int, frame: object) -> None:
    raise KeyboardInterrupt
