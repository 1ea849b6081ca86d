"""Find the database for a command: DATABASE_URL if set, else the embedded server."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import psycopg

from tableside.db.embedded import DataDirBusy, EmbeddedPostgres
from tableside.db.url import describe
from tableside.settings import Settings


class StartupError(RuntimeError):
    """Something a person must fix before Tableside can start; the message is one line."""


@dataclass(frozen=True)
class Database:
    """A reachable PostgreSQL: its URL, a printable name, and how we got it."""

    url: str
    label: str
    adopted_pid: int | None = None
    embedded: EmbeddedPostgres | None = None  # the server we own, to revive if it dies


@contextmanager
def database(settings: Settings, *, attach: bool = False) -> Iterator[Database]:
    """Yield a reachable database; an embedded server started here is stopped on exit."""
    if settings.database_url:
        check_reachable(settings.database_url)
        yield Database(settings.database_url, describe(settings.database_url))
        return
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
        check_reachable(url)
        yield Database(url, f"embedded in {settings.data_dir}", server.adopted_pid, server)
    finally:
        server.stop()


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
