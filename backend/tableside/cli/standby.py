"""`tableside standby --primary HOST:PORT --data-dir DIR`: a streaming copy of a venue's
store on a second machine, which serves once `tableside promote` makes it the primary.

First run: a base backup from the primary (with the credentials file the primary wrote,
`--credentials`), then streaming; later runs go on streaming from where the copy is. While a
standby it serves nothing and prints its lag now and then; promoted, it goes on exactly as
`tableside serve` (same flags), on the copy, with no restart of its PostgreSQL.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

LAG_EVERY = 30.0  # seconds between the lag lines while a standby


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """--primary, --credentials, --data-dir, --replication, and serve's --host/--port."""
    parser.add_argument(
        "--primary",
        required=True,
        metavar="HOST:PORT",
        help="the primary's replication address (its `serve --replication`)",
    )
    parser.add_argument(
        "--credentials",
        type=Path,
        help="the file the primary wrote for its"
        " standby (needed for the first run: the base backup)",
    )
    parser.add_argument("--data-dir", type=Path, help="this machine's embedded PostgreSQL data dir")
    parser.add_argument(
        "--replication",
        metavar="HOST:PORT",
        help="where this PostgreSQL listens"
        " for a standby of its own once promoted (default: the primary's port on"
        " 127.0.0.1; env TABLESIDE_REPLICATION_LISTEN)",
    )
    parser.add_argument("--host", help="address to serve on once promoted (env HOST)")
    parser.add_argument("--port", type=int, help="port to serve on once promoted (env PORT)")
    parser.add_argument("--workers", type=int, help="server processes once promoted")
    parser.add_argument("--key-file", type=Path, help="checkpoint signing key (the primary's)")


def run(args: argparse.Namespace) -> int:
    """Stream until promoted, then serve; Ctrl-C stops the standby's PostgreSQL."""
    from tableside.cli import serve
    from tableside.db.embedded import DataDirBusy
    from tableside.db.replication import ReplicationError, parse_address
    from tableside.db.runtime import StartupError
    from tableside.settings import Settings, SettingsError

    serve.install_signals()
    try:
        primary = parse_address(args.primary, "--primary")
        settings = Settings.from_env().replace(
            host=args.host, port=args.port, data_dir=args.data_dir, key_file=args.key_file
        )
        listen = args.replication or settings.replication or f"127.0.0.1:{primary[1]}"
        settings = settings.replace(replication=listen, database_url="")
        parse_address(listen, "--replication")
        if not _until_promoted(settings, primary, args.credentials):
            return 0
        print("promoted: this machine is the primary now; serving", flush=True)
        return serve.serve(settings, workers=serve.workers(args.workers))
    except (ReplicationError, DataDirBusy, StartupError, SettingsError) as exc:
        print(f"tableside: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0


def _until_promoted(settings, primary: tuple[str, int], credentials: Path | None) -> bool:
    """Run the standby; True once promoted (its PostgreSQL left running for `serve` to
    adopt), False when stopped first (its PostgreSQL stopped)."""
    from tableside.db import replication
    from tableside.db.embedded import EmbeddedPostgres

    server = EmbeddedPostgres(settings.data_dir)
    server.take()
    promoted = False
    try:
        if not (server.data_dir / "PG_VERSION").exists():
            if credentials is None:
                raise replication.ReplicationError(
                    "the first run needs --credentials (the file the primary printed)"
                )
            print(f"standby: base backup from {primary[0]}:{primary[1]} …", flush=True)
            replication.base_backup(server.data_dir, primary, credentials)
        url = server.listen_on(*replication.parse_address(settings.replication))
        print(
            f"standby: streaming from {primary[0]}:{primary[1]} into {server.data_dir};"
            f" `tableside promote --data-dir {settings.data_dir}` makes it the primary,"
            f" then this serves on http://{settings.host}:{settings.port}/",
            flush=True,
        )
        promoted = _stream(url, revive=server.revive)
        return promoted
    finally:
        if promoted:
            server.release()
        else:
            server.stop()


def _stream(url: str, every: float = 0.2, revive=None) -> bool:
    """Wait while the server is a standby, printing its lag; True once it is not. A look
    that fails (its PostgreSQL stalled past the connect bound, or died) is said and tried
    again, the server started again when it died (`revive`): #50, it ended with a traceback
    and nothing restarted it, and a required standby then refused every write."""
    said = 0.0
    while (standby := _look(url, revive)) is not False:
        if standby and time.monotonic() - said > LAG_EVERY:
            _say_lag(url)
            said = time.monotonic()
        time.sleep(every)
    return True


def _look(url: str, revive) -> bool | None:
    """In recovery (True), promoted (False), or no answer this time (None, said)."""
    import psycopg

    from tableside.db import replication

    try:
        return replication.in_recovery(url)
    except psycopg.OperationalError as exc:
        try:
            again = revive() if revive is not None else False
        except Exception:  # its old backends still exiting: the next look tries again
            again = False
        what = "it died and was started again" if again else "looking again"
        print(f"standby: its PostgreSQL did not answer ({_first_line(exc)}): {what}", flush=True)
        return None


def _say_lag(url: str) -> None:
    import psycopg

    from tableside.db import replication

    try:
        behind, seconds = replication.standby_lag(url)
    except psycopg.OperationalError:
        return  # the next look says it
    age = "no commit replayed yet" if seconds is None else f"last commit {seconds:.1f} s ago"
    print(f"standby: {behind or 0} bytes received not yet replayed; {age}", flush=True)


def _first_line(exc: Exception) -> str:
    return (str(exc).strip().splitlines() or ["no answer"])[0]
