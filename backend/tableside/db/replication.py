"""A streaming standby of the embedded PostgreSQL on a second machine (issue 33).

The primary (`serve --replication HOST:PORT`) listens on TCP there for one thing only: the
role `tableside_replica` (REPLICATION, nothing else) with a password (SCRAM); every other
TCP connection is refused (pg_hba.conf), the socket stays as it was. The primary makes the
role and a random password and writes them to one file
(`<data dir>/../replication/standby-credentials.json`, mode 0600) to carry to the standby
machine; the password is sent to PostgreSQL only as a SCRAM verifier and is never in a URL,
an argument or a log. The wheel's PostgreSQL is built without TLS, so the stream itself is
not encrypted: docs/decisions/ says where to run it.

The standby (`tableside standby --primary HOST:PORT --credentials FILE`) takes a base backup
(pg_basebackup, WAL streamed with it), then streams (primary_conninfo with a passfile). It
has the app's roles, tokens and accounts because it is a physical copy.

While serving, `watch` keeps commits synchronous to an attached standby
(synchronous_standby_names) and, when it drops, asynchronous again — said loudly on the
console, in /health and the log — unless the event asked to stop instead
(TABLESIDE_STANDBY_REQUIRED: the app then refuses every write with 503 "No standby" until a
standby is back; reads, /health and logins go on).
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import json
import os
import secrets
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import psycopg
from psycopg import sql

from tableside.db.background import repeating
from tableside.db.rows import one

REPLICA_ROLE = "tableside_replica"
STANDBY_NAME = "tableside_standby"
CREDENTIALS_FORMAT = "tableside-standby/1"
_HBA = f"""\
# Written by tableside (db/replication.py): the socket as before; on TCP only the standby's
# replication role, with its password (SCRAM). Everything else on TCP is refused.
local   all           all                        trust
host    replication   {REPLICA_ROLE}  all        scram-sha-256
host    all           all             all        reject
"""
_SETTINGS = {
    "wal_sender_timeout": "5s",  # a standby that vanished is noticed within seconds
    "wal_keep_size": "1GB",  # a standby that was away a while can catch up
}


class ReplicationError(RuntimeError):
    """A standby cannot be set up or started; the message says what to fix."""


def parse_address(text: str, what: str = "address") -> tuple[str, int]:
    """`HOST:PORT` (IPv6 in brackets) → (host, port); ReplicationError when it is not one."""
    host, _, port = text.rpartition(":")
    host = host.strip("[]")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ReplicationError(f"{what} must be HOST:PORT, not {text!r}")
    return host, int(port)


def credentials_path(data_dir: Path) -> Path:
    """Where the primary writes what a standby needs (role, password, certificate)."""
    return data_dir.parent / "replication" / "standby-credentials.json"


def prepare_primary(superuser_url: str, data_dir: Path) -> Path:
    """Certificate, pg_hba.conf, the replication role and its settings; before the server
    listens on TCP. Returns the credentials file (made once, kept)."""
    path = credentials_path(data_dir)
    password = _load(path)["password"] if path.is_file() else secrets.token_urlsafe(32)
    _write_private(
        path,
        json.dumps(
            {
                "format": CREDENTIALS_FORMAT,
                "role": REPLICA_ROLE,
                "password": password,
            }
        ).encode(),
    )
    _write_owned(data_dir / "pg_hba.conf", _HBA.encode(), data_dir)
    with psycopg.connect(superuser_url, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (REPLICA_ROLE,))
        verb = "ALTER" if exists.fetchone() else "CREATE"
        conn.execute(
            sql.SQL(
                "{} ROLE {} LOGIN REPLICATION NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD {}"
            ).format(sql.SQL(verb), sql.Identifier(REPLICA_ROLE), sql.Literal(_scram(password)))
        )
        for name, value in _SETTINGS.items():
            conn.execute(sql.SQL("ALTER SYSTEM SET {} = {}").format(sql.SQL(name), value))
        conn.execute("SELECT pg_reload_conf()")
    return path


def _scram(password: str, iterations: int = 4096) -> str:
    """The SCRAM-SHA-256 verifier PostgreSQL stores (RFC 5802/7677): the server never sees
    the password itself."""
    salt = secrets.token_bytes(16)
    salted = hashlib.pbkdf2_hmac("sha256", password.encode(), salt, iterations)
    client_key = hmac.new(salted, b"Client Key", "sha256").digest()
    stored_key = hashlib.sha256(client_key).digest()
    server_key = hmac.new(salted, b"Server Key", "sha256").digest()
    b64 = base64.b64encode
    return (
        f"SCRAM-SHA-256${iterations}:{b64(salt).decode()}"
        f"${b64(stored_key).decode()}:{b64(server_key).decode()}"
    )


def _write_owned(path: Path, data: bytes, like: Path) -> None:
    """Write a file 0600 owned by whoever owns `like` (the server's OS user)."""
    _write_private(path, data)
    owner = like.stat()
    os.chown(path, owner.st_uid, owner.st_gid)


def _write_private(path: Path, data: bytes) -> None:
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(data)
    tmp.replace(path)


def _load(path: Path) -> dict[str, str]:
    try:
        found = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise ReplicationError(f"{path}: not standby credentials ({exc})") from None
    if not isinstance(found, dict) or found.get("format") != CREDENTIALS_FORMAT:
        raise ReplicationError(f"{path}: not standby credentials ({CREDENTIALS_FORMAT})")
    return found


# --- the standby ---------------------------------------------------------------------------


def base_backup(data_dir: Path, primary: tuple[str, int], credentials: Path) -> None:
    """Copy the primary into an empty `data_dir` (pg_basebackup, WAL streamed along) and
    make it a standby that streams from there."""
    from tableside.db.embedded import system_user

    given = _load(credentials)
    host, port = primary
    secrets_dir = data_dir.parent / "replication"
    passfile = secrets_dir / "primary.pgpass"
    _write_private(passfile, f"*:*:*:{given['role']}:{given['password']}\n".encode())
    data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    if (user := system_user()) is not None:
        _hand_over(user, data_dir, secrets_dir, passfile)
    conninfo = (
        f"host={host} port={port} user={given['role']} passfile={passfile}"
        f" application_name={STANDBY_NAME}"
        " connect_timeout=10"
    )
    try:
        copy = conninfo.replace(STANDBY_NAME, "tableside_base_backup")  # not the standby yet
        _tool("pg_basebackup", ["-d", copy, "-D", str(data_dir), "-X", "stream", "-c", "fast"])
    except Exception as exc:
        shutil.rmtree(data_dir, ignore_errors=True)
        raise ReplicationError(
            f"the base backup from {host}:{port} failed ({_first_line(exc)})"
        ) from None
    auto = data_dir / "postgresql.auto.conf"
    with auto.open("a") as conf:
        conf.write(f"primary_conninfo = '{conninfo}'\n")
        # A promoted standby must not wait for a standby of its own that is not there.
        conf.write("synchronous_standby_names = ''\n")
    (data_dir / "standby.signal").touch()
    # The primary's socket lock and the wheel's handle list came along; they are not ours.
    for stray in [*data_dir.glob(".s.PGSQL.*"), data_dir / ".handle_pids.json"]:
        stray.unlink(missing_ok=True)
    if user is not None:
        _hand_over(user, data_dir / "standby.signal", auto)
    data_dir.chmod(0o700)


def _hand_over(user: str, *paths: Path) -> None:
    import pwd

    from tableside.db.embedded import _wheel

    _wheel().utils.ensure_user_exists(user)
    entry = pwd.getpwnam(user)
    for path in paths:
        os.chown(path, entry.pw_uid, entry.pw_gid)
        _wheel().utils.ensure_prefix_permissions(path.parent)


def _tool(name: str, args: list[str]) -> str:
    from tableside.db.embedded import _wheel, system_user

    return getattr(_wheel(), name)(args, user=system_user(), timeout=600)


def _first_line(exc: Exception) -> str:
    stderr = getattr(exc, "stderr", None) or str(exc)
    lines = [line for line in str(stderr).splitlines() if line.strip()]
    return lines[-1] if lines else type(exc).__name__


def in_recovery(superuser_url: str) -> bool:
    """Is this server still a standby?"""
    with psycopg.connect(superuser_url, connect_timeout=5) as conn:
        return bool(one(conn.execute("SELECT pg_is_in_recovery()"))[0])


def promote(superuser_url: str, wait_seconds: int = 60) -> bool:
    """Make the standby a primary; True once it is (False: it was not a standby)."""
    with psycopg.connect(superuser_url, autocommit=True, connect_timeout=5) as conn:
        if not one(conn.execute("SELECT pg_is_in_recovery()"))[0]:
            return False
        done = one(conn.execute("SELECT pg_promote(true, %s)", (wait_seconds,)))[0]
    if not done:
        raise ReplicationError(f"the standby did not become primary within {wait_seconds} s")
    return True


def standby_lag(superuser_url: str) -> tuple[int | None, float | None]:
    """(bytes received but not replayed, seconds since the last replayed commit) here."""
    with psycopg.connect(superuser_url, connect_timeout=5) as conn:
        row = one(
            conn.execute(
                "SELECT pg_wal_lsn_diff(pg_last_wal_receive_lsn(), pg_last_wal_replay_lsn()),"
                " extract(epoch FROM now() - pg_last_xact_replay_timestamp())"
            )
        )
    return (int(row[0]) if row[0] is not None else None), (
        float(row[1]) if row[1] is not None else None
    )


# --- the primary while serving -----------------------------------------------------------

_STREAMING = (
    "SELECT count(*) FROM pg_stat_replication WHERE application_name = %s AND state = 'streaming'"
)
PROTECTED = "a standby is attached: every commit waits for its copy (synchronous)"
UNPROTECTED = (
    "WARNING: NO STANDBY. The record is on this machine only; commits go on without a second"
    " copy (asynchronous) until the standby is back"
)
STOPPED = (
    "WARNING: NO STANDBY. Nothing is recorded until the standby is back: every write is refused"
    " (TABLESIDE_STANDBY_REQUIRED)"
)


@contextlib.contextmanager
def watch(superuser_url: str, *, required: bool, every: float = 0.5) -> Iterator[None]:
    """While serving: synchronous to an attached standby, asynchronous (loudly) without one,
    and when `required` said as stopped (the app refuses writes meanwhile). Each change is one
    line on the console and in the log."""

    def step(said: str | None) -> str | None:
        with psycopg.connect(superuser_url, autocommit=True, connect_timeout=5) as conn:
            streaming = one(conn.execute(_STREAMING, (STANDBY_NAME,)))[0] > 0
            # Never synchronous to a standby that is not there, even when one is required: every
            # commit would wait in PostgreSQL for ever (issue 46: the server started, printed
            # "serving" and answered nothing for 10 min). The app refuses writes instead
            # (web/availability.database_gate: 503 "No standby").
            names = STANDBY_NAME if streaming else ""
            current = one(conn.execute("SHOW synchronous_standby_names"))[0]
            if current != names:
                conn.execute(
                    sql.SQL("ALTER SYSTEM SET synchronous_standby_names = {}").format(names)
                )
                conn.execute("SELECT pg_reload_conf()")
        say = PROTECTED if streaming else STOPPED if required else UNPROTECTED
        if say != said:
            print(f"replication: {say}", file=sys.stdout if streaming else sys.stderr, flush=True)
        return say

    said: list[str | None] = [None]

    def keep() -> None:
        with contextlib.suppress(psycopg.Error):  # the server restarting: next round
            said[0] = step(said[0])

    with repeating(keep, every, "standby-watch"):
        yield


# What /health says (any role may run it: pg_stat_replication shows every sender's row).
HEALTH_QUERY = (
    "SELECT current_setting('synchronous_standby_names') <> '',"
    " (SELECT count(*) FROM pg_stat_replication) > 0, pg_is_in_recovery()"
)
