"""Find the database for a command: DATABASE_URL if set, else the embedded server."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import psycopg

from tableside.db import roles
from tableside.db.embedded import DataDirBusy, EmbeddedPostgres
from tableside.db.url import describe, user_of
from tableside.settings import Settings


class StartupError(RuntimeError):
    """Something a person must fix before Tableside can start; the message is one line."""


@dataclass(frozen=True)
class Database:
    """A reachable PostgreSQL: the server's URL, the migrator's, a printable name.

    `url` is what the server connects with (the least-privilege role when there is one);
    `owner_url` runs migrations; `app_role` is the role to grant after migrating (None when
    both URLs are the same role).
    """

    url: str
    label: str
    adopted_pid: int | None = None
    owner_url: str = ""
    app_role: str | None = None
    embedded: EmbeddedPostgres | None = None  # the server we own, to revive if it dies

    @property
    def migrate_url(self) -> str:
        """Where migrations run: the owner's URL, else the server's own."""
        return self.owner_url or self.url


@contextmanager
def database(
    settings: Settings, *, attach: bool = False, existing: bool = False
) -> Iterator[Database]:
    """Yield a reachable database; an embedded server started here is stopped on exit.

    `existing` (audit, projections): the store must already be there; a data dir without
    one, or a database without the event store, is a one-line StartupError, and nothing is
    created (no data dir, no initdb, no tables)."""
    if settings.database_url:
        db = _given(settings.database_url, settings.migrate_url)
        if existing:
            _require_store(db.url, db.label)
        yield db
        return
    if existing and not (settings.data_dir / "PG_VERSION").is_file():
        raise StartupError(
            f"no Tableside store in {settings.data_dir} (give --data-dir or DATABASE_URL, or"
            " start `tableside serve` there first)"
        )
    server = EmbeddedPostgres(settings.data_dir)
    try:
        try:
            url = server.start(attach=attach)
        except DataDirBusy as exc:
            raise StartupError(str(exc)) from None
        except (subprocess.SubprocessError, OSError) as exc:
            raise StartupError(
                f"embedded PostgreSQL in {settings.data_dir} did not start "
                f"({type(exc).__name__}); see its log file there"
            ) from None
        if settings.replication and not attach:
            url = _listening(server, url, settings)
        check_reachable(url)
        label = f"embedded in {settings.data_dir}"
        if existing:
            _require_store(url, label)
        owner_url, app_url = roles.setup(url)
        yield Database(app_url, label, server.adopted_pid, owner_url, roles.APP_ROLE, server)
    finally:
        server.stop()


def _listening(server: EmbeddedPostgres, url: str, settings: Settings) -> str:
    """The embedded server made ready for a standby, then listening on TCP for it."""
    from tableside.db import replication

    try:
        host, port = replication.parse_address(settings.replication or "", "--replication")
        if not replication.in_recovery(url):
            path = replication.prepare_primary(url, server.data_dir)
            print(f"replication: a standby connects to {host}:{port} with {path}", flush=True)
        return server.listen_on(host, port)
    except (replication.ReplicationError, subprocess.SubprocessError) as exc:
        raise StartupError(f"cannot listen for a standby: {exc}") from None


def _given(url: str, migrate_url: str | None) -> Database:
    """DATABASE_URL (the server's role) and TABLESIDE_MIGRATE_URL (the owner), if given."""
    check_reachable(url)
    if not migrate_url or user_of(migrate_url) == user_of(url):
        return Database(url, describe(url))
    check_reachable(migrate_url)
    return Database(url, describe(url), owner_url=migrate_url, app_role=user_of(url))


def _require_store(url: str, label: str) -> None:
    """The event store's tables are there (migrations have run)."""
    with psycopg.connect(url, connect_timeout=5) as conn:
        row = conn.execute("SELECT to_regclass('stored_events') IS NOT NULL").fetchone()
    if not (row and row[0]):
        raise StartupError(f"no Tableside store in PostgreSQL {label} (run `tableside migrate`)")


def check_reachable(url: str) -> None:
    """Connect once; turn any failure into a one-line StartupError naming the server."""
    try:
        with psycopg.connect(url, connect_timeout=5):
            pass
    except psycopg.Error as exc:
        raise StartupError(f"cannot reach PostgreSQL at {describe(url)}: {_reason(exc)}") from None


def _reason(exc: psycopg.Error) -> str:
    # libpq says `connection failed: connection to server at "h", port p failed: WHY\n\tHINT`;
    # the host is already in our message, so keep only WHY.
    lines = str(exc).strip().splitlines() or [type(exc).__name__]
    return lines[0].rsplit(" failed: ", 1)[-1].strip()
