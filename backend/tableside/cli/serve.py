"""`tableside serve`: database (embedded unless DATABASE_URL), migrations, then the web app."""

from __future__ import annotations

import argparse
import contextlib
import gc
import multiprocessing
import multiprocessing.connection
import os
import signal
import socket
import sys
from pathlib import Path

# /live is uncompressed (docs/decisions/, "Live at scale"): one encoded frame for every
# spectator; per-message deflate would compress the same bytes once per socket.
UVICORN = {
    "log_level": "warning",
    "lifespan": "on",
    "ws_per_message_deflate": False,
    # httptools' protocol, let go of as a connection becomes a websocket (decision 0143)
    "http": "tableside.server.upgrades:LetGoOnUpgrade",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Flags: --demo, --host, --port, --data-dir, --workers (env: HOST, PORT,
    TABLESIDE_DATA_DIR, TABLESIDE_WORKERS)."""
    parser.add_argument("--demo", action="store_true", help="load a demo competition")
    parser.add_argument("--host", help="address to listen on (default 127.0.0.1, env HOST)")
    parser.add_argument("--port", type=int, help="port to listen on (default 8000, env PORT)")
    parser.add_argument("--data-dir", type=Path, help="embedded PostgreSQL data dir")
    parser.add_argument(
        "--workers",
        type=int,
        help="server processes sharing the port (default: the machine's cores, env "
        "TABLESIDE_WORKERS); each tails the one event log through its own LISTEN",
    )
    parser.add_argument(
        "--key-file", type=Path, help="checkpoint signing key (env TABLESIDE_KEY_FILE)"
    )
    parser.add_argument(
        "--tls-cert",
        type=Path,
        help="the operator's certificate chain (PEM) for HTTPS, e.g. a federation's real name"
        " (env TABLESIDE_TLS_CERT); without it a non-loopback host uses the venue CA's",
    )
    parser.add_argument(
        "--tls-key", type=Path, help="the key of --tls-cert (PEM; env TABLESIDE_TLS_KEY)"
    )
    parser.add_argument(
        "--accept-disputed",
        action="store_true",
        default=None,
        help="sign again on a store that no longer yields a head its key signed: the dispute"
        " is recorded as an event and in the signer's log (env TABLESIDE_ACCEPT_DISPUTED)",
    )
    parser.add_argument(
        "--federation",
        metavar="URL",
        help="push the signed store to this federation (env TABLESIDE_FEDERATION_URL; the"
        " enrolment code in TABLESIDE_FEDERATION_CODE or the uplink folder's `code` file);"
        " `local` starts one on this machine beside the venue (`make run`)",
    )
    parser.add_argument(
        "--replication",
        metavar="HOST:PORT",
        help="the embedded PostgreSQL also listens here for a standby (`tableside standby`;"
        " env TABLESIDE_REPLICATION_LISTEN)",
    )


def run(args: argparse.Namespace) -> int:
    """Serve until Ctrl-C or SIGTERM; the embedded server stops with us."""
    from tableside.db.migrations import MigrationError
    from tableside.db.runtime import StartupError
    from tableside.eventlog.checkpoints import CheckpointError
    from tableside.settings import Settings, SettingsError

    install_signals()
    try:
        settings = Settings.from_env().replace(
            host=args.host,
            port=args.port,
            data_dir=args.data_dir,
            key_file=args.key_file,
            replication=args.replication,
            tls_cert=args.tls_cert,
            tls_key=args.tls_key,
            accept_disputed=args.accept_disputed,
        )
        if args.federation == "local":
            from tableside.cli.local_federation import local_federation

            with local_federation(settings) as settings:
                return serve(settings, demo=args.demo, workers=workers(args.workers))
        settings = settings.replace(federation_url=args.federation)
        return serve(settings, demo=args.demo, workers=workers(args.workers))
    except (StartupError, SettingsError, MigrationError, CheckpointError) as exc:
        print(f"tableside: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0


def install_signals() -> None:
    """SIGTERM must unwind like Ctrl-C so the embedded PostgreSQL is stopped on the way out;
    and Ctrl-C stops us even when a shell started us in the background with SIGINT ignored."""
    signal.signal(signal.SIGTERM, _exit_on_signal)
    signal.signal(signal.SIGINT, signal.default_int_handler)


def workers(flag: int | None) -> int:
    from tableside.settings import SettingsError

    raw = flag if flag is not None else os.environ.get("TABLESIDE_WORKERS") or os.cpu_count() or 1
    try:
        workers = int(raw)
    except ValueError:
        raise SettingsError(f"TABLESIDE_WORKERS must be a whole number, not {raw!r}") from None
    if not 1 <= workers <= 64:
        raise SettingsError(f"--workers must be between 1 and 64, not {workers}")
    return workers


def serve(settings, *, demo: bool = False, workers: int = 1) -> int:
    """Listen on the settings' host and port (and, with HTTPS, plain HTTP on the next one for
    /setup), then serve (also what a promoted standby runs)."""
    from tableside.cli.hall import https_peers, transport

    way = transport(settings)
    listeners = [_bind(settings.host, settings.port)]
    if way.tls:
        listeners.append(_bind(settings.host, way.http_port))
        settings = settings.replace(
            https_origin=way.https_origin,
            http_port=way.http_port,
            served_names=way.names,
            peers=https_peers(settings.peers),
        )
    return _serve(settings, listeners, way, demo=demo, workers=workers)


def _serve(settings, listeners: list[socket.socket], way, *, demo: bool, workers: int) -> int:
    """Database and migrations once, here; then one server, or `workers` child processes."""
    from tableside.db import migrations
    from tableside.db.roles import register_key
    from tableside.db.runtime import database
    from tableside.eventlog.checkpoints import public_hex
    from tableside.eventlog.key_identity import bound_log, signing_key_for, store_identity

    with database(settings) as db:
        if db.adopted_pid is not None:
            print(f"reusing PostgreSQL (pid {db.adopted_pid}) left running by an earlier run")
        applied = migrations.apply(db.migrate_url, app_role=db.app_role)
        # the store's own key (made here on its first start); another key, or none, refuses
        key = signing_key_for(db.migrate_url, settings.signing_key_path)
        bound_log(settings.checkpoint_log_path, store_identity(db.migrate_url))
        unregistered = register_key(db.migrate_url, bytes.fromhex(public_hex(key)))
        app_settings = settings.replace(database_url=db.url, demo=demo or None)
        _announce(settings, way, db.label, len(applied), demo=demo, workers=workers)
        print(f"checkpoints: signed by {settings.signing_key_path} (public key {public_hex(key)})")
        if unregistered:
            print(f"warning: {unregistered}", file=sys.stderr)
        _warn_if_privileged(db.url)
        _how_in(db.url, settings, demo)
        with _kept_alive(db.embedded), _standby_watch(db, settings):
            if workers == 1:
                _worker(app_settings, listeners, way)
            else:
                _supervise(app_settings, listeners, way, workers)
    return 0


def _worker(settings, listeners: list[socket.socket], way) -> None:
    """One server process: the app, its own pools, runner, hub and LISTEN, on the shared port
    (with HTTPS, uvicorn's TLS there, and the same app in plain HTTP on the second)."""
    import uvicorn

    from tableside.live.socket_auth import MAX_FRAME
    from tableside.server import create_app

    app = create_app(settings)
    _settle_gc()
    # SIGTERM lets requests finish for `shutdown_seconds`, then cuts them (issue 28: a request
    # stuck on a lock held the server up for ever); a cut request stores nothing half.
    # A websocket frame past MAX_FRAME is refused by its header, never read (issue 46).
    bound = {"timeout_graceful_shutdown": settings.shutdown_seconds, "ws_max_size": MAX_FRAME}
    if not way.tls:
        uvicorn.Server(uvicorn.Config(app, **UVICORN, **bound)).run(sockets=listeners)
        return
    from uvicorn._compat import asyncio_run

    class Follower(uvicorn.Server):
        """The plain listener: it shares the app (whose lifespan runs once, in the main
        server), leaves SIGINT/SIGTERM to the main server and stops when it does."""

        @contextlib.contextmanager
        def capture_signals(self):
            yield

    from tableside.cli.hall import https_port_config

    # TLS to Mozilla's intermediate profile, renewed while serving; plain HTTP on this port
    # answered with the way to HTTPS (issue 52)
    main = uvicorn.Server(https_port_config(app, way, **UVICORN, **bound))
    plain = Follower(uvicorn.Config(app, **{**UVICORN, "lifespan": "off"}, **bound))
    asyncio_run(_both(main, plain, listeners), loop_factory=main.config.get_loop_factory())


async def _both(main, plain, listeners: list[socket.socket]) -> None:
    import asyncio

    follower = asyncio.create_task(plain.serve(sockets=listeners[1:]))
    try:
        await main.serve(sockets=listeners[:1])
    finally:
        plain.should_exit = True
        await follower


def _settle_gc() -> None:
    """Start-up objects (modules, routes, the app) leave the collector's view, and young
    collections run less often: with thousands of sockets each full pass is a pause."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)


def _child(settings, listeners: list[socket.socket], way) -> None:
    """A worker process: it dies with its parent (a parent killed with SIGKILL leaves no
    server behind holding the port), then serves."""
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    if os.getppid() == 1:  # the parent died before prctl took effect
        return
    _worker(settings, listeners, way)


def _supervise(settings, listeners: list[socket.socket], way, workers: int) -> None:
    """Run `workers` processes on the one listening socket; restart one that dies. The demo
    simulator runs in the first only. Ctrl-C or SIGTERM stops them all."""
    spawn = multiprocessing.get_context("spawn")
    roles = [settings] + [settings.replace(demo=False)] * (workers - 1)

    def start(role) -> multiprocessing.Process:
        proc = spawn.Process(target=_child, args=(role, listeners, way), name="tableside-worker")
        proc.start()
        return proc

    procs = [start(role) for role in roles]
    try:
        while True:
            multiprocessing.connection.wait([p.sentinel for p in procs], timeout=1)
            for i, proc in enumerate(procs):
                if proc.exitcode is not None:
                    print(f"worker {proc.pid} exited ({proc.exitcode}); starting another")
                    procs[i] = start(roles[i])
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.join(15)
            if proc.exitcode is None:
                proc.kill()


@contextlib.contextmanager
def _kept_alive(server, every: float = 0.5):
    """While serving, restart an embedded PostgreSQL that died (the app's pools, its LISTEN
    and its runners reconnect by themselves; requests get 503 meanwhile)."""
    if server is None:
        yield
        return

    def keep() -> None:
        try:
            if server.revive():
                print("the embedded PostgreSQL had stopped; restarted it", flush=True)
        except Exception as exc:  # old backends still exiting: try again next round
            print(f"restarting the embedded PostgreSQL failed ({exc}); retrying", flush=True)

    from tableside.db.background import repeating

    with repeating(keep, every, "embedded-postgres-keeper"):
        yield


def _standby_watch(db, settings):
    """With --replication: commits synchronous to an attached standby (db/replication)."""
    if db.embedded is None or not settings.replication:
        return contextlib.nullcontext()
    from tableside.db.replication import watch

    return watch(db.embedded.superuser_url, required=settings.standby_required)


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


def _how_in(url: str, settings, demo: bool) -> None:
    """On a store with no staff account (a first start), say how the first one is made:
    without it nobody can sign in to the console (issue 45)."""
    import psycopg

    if demo or (settings.admin_user and settings.admin_password):
        return  # the demo's account, or the first head judge, is made as the server starts
    with psycopg.connect(url) as conn:
        if conn.execute("SELECT EXISTS (SELECT 1 FROM staff_accounts)").fetchone()[0]:
            return
    print(
        "no staff account yet: nobody can sign in to /admin. Make the first head judge with"
        " `tableside staff add <name>` (in another terminal; it asks the password twice), or"
        " stop and start again with TABLESIDE_ADMIN_USER=<name> TABLESIDE_ADMIN_PASSWORD=<password>"
        " set (README: Configuration); `tableside serve --demo` makes demo / demo-head-judge",
        flush=True,
    )


def _announce(settings, way, label: str, applied: int, *, demo: bool, workers: int) -> None:
    base = way.https_origin or f"http://{settings.host}:{settings.port}"
    print(f"database: PostgreSQL {label} ({applied} migrations applied now)")
    if way.tls:
        _announce_tls(way)
    if demo:
        print(f"demo: {base}/ runs a demo Swiss on tables 1–4, table 5 is yours; links follow")
    print(f"Tableside is serving on {base}/ ({workers} process{'es' if workers > 1 else ''})")
    if settings.federation_url:
        folder = settings.uplink_folder
        print(f"  federation: {settings.federation_url}/ (the uplink's folder {folder})")
    print(f"  health: {base}/health")
    print("Press Ctrl-C to stop.", flush=True)


def _announce_tls(way) -> None:
    """The HTTPS origin, and for a venue CA the setup page's QR code and the fingerprint."""
    import segno

    from tableside.cli.hall import uncovered

    print(f"HTTPS: {way.https_origin}/ (plain HTTP on port {way.http_port}: setup only)")
    if host := uncovered(way):
        print(
            f"warning: the certificate does not carry {host} ({', '.join(way.names)}): a"
            " browser refuses the HTTPS origin; set TABLESIDE_HTTPS_ORIGIN to one of its names",
            file=sys.stderr,
        )
    if way.ca_fingerprint is None:
        print("  certificate: the operator's (--tls-cert)")
        return
    renewed = " (made now for this machine's names)" if way.renewed else ""
    if way.ca_replaced:  # not the routine line: every tablet must act (issue 52)
        print(
            "warning: the venue CA's key (venue-ca.key) was lost, so a new venue CA was made:"
            f" every tablet must trust the new CA: fingerprint {way.ca_fingerprint}"
            f" (the setup page: {way.setup_url})",
            file=sys.stderr,
            flush=True,
        )
    if way.outside:
        print(
            f"warning: the venue CA may not vouch for {', '.join(way.outside)} (its name"
            " constraints, made with it): a tablet cannot open those; decision 0178",
            file=sys.stderr,
        )
    print(f"  venue CA SHA-256 fingerprint: {way.ca_fingerprint}{renewed}")
    print(f"  tablets: scan to set up (install the venue CA once): {way.setup_url}")
    segno.make(way.setup_url, error="m").terminal(compact=True)


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
