"""Apply the numbered SQL files in schema/, each in its own transaction, exactly once."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

import psycopg

from tableside.settings import bundled

SCHEMA_DIR = bundled("schema")
_NAME = re.compile(r"^(\d{3})_[a-z0-9_]+\.sql$")
# Any fixed key: serialises migrators started at the same moment (two replicas, tests).
_LOCK_KEY = 7_202_611


class MigrationError(RuntimeError):
    """The schema/ folder and the database disagree, or a migration failed."""


@dataclass(frozen=True)
class Migration:
    """One numbered SQL file."""

    version: int
    name: str
    sql: str

    @property
    def checksum(self) -> str:
        """SHA-256 of the file text, to notice a migration edited after it was applied."""
        return hashlib.sha256(self.sql.encode()).hexdigest()


def load(schema_dir: Path = SCHEMA_DIR) -> list[Migration]:
    """Read every `NNN_name.sql` in order; refuse duplicates and stray names."""
    migrations = []
    for path in sorted(schema_dir.glob("*.sql")):
        match = _NAME.match(path.name)
        if not match:
            raise MigrationError(f"{path.name}: migration files are named NNN_lower_name.sql")
        migrations.append(Migration(int(match.group(1)), path.name, path.read_text()))
    if not migrations:
        raise MigrationError(f"no migrations found in {schema_dir} (NNN_name.sql files)")
    versions = [m.version for m in migrations]
    if len(set(versions)) != len(versions):
        raise MigrationError(f"two migrations share a number in {schema_dir}")
    return migrations


def apply(
    url: str, schema_dir: Path = SCHEMA_DIR, *, app_role: str | None = None
) -> list[Migration]:
    """Apply pending migrations to the database at `url`; return those applied now.

    With `app_role`, the server's role is granted what it needs afterwards (every run, so
    objects that later migrations add are covered): see `tableside.db.roles`.
    """
    migrations = load(schema_dir)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SELECT pg_advisory_lock(%s)", (_LOCK_KEY,))
        try:
            applied = _applied(conn)
            _check_unchanged(migrations, applied)
            pending = [m for m in migrations if m.version not in applied]
            for migration in pending:
                _apply_one(conn, migration)
            if app_role is not None:
                _grant(conn, app_role)
            return pending
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (_LOCK_KEY,))


def schema_version(conn: psycopg.Connection) -> int | None:
    """The highest applied migration number, or None on an empty database."""
    if not _has_table(conn):
        return None
    row = conn.execute("SELECT max(version) FROM schema_migrations").fetchone()
    return row[0] if row else None


def _has_table(conn: psycopg.Connection) -> bool:
    row = conn.execute("SELECT to_regclass('schema_migrations') IS NOT NULL").fetchone()
    return bool(row and row[0])


def _applied(conn: psycopg.Connection) -> dict[int, str]:
    if not _has_table(conn):
        return {}
    rows = conn.execute("SELECT version, checksum FROM schema_migrations").fetchall()
    return {version: checksum for version, checksum in rows}


def _check_unchanged(migrations: list[Migration], applied: dict[int, str]) -> None:
    for migration in migrations:
        recorded = applied.get(migration.version)
        if recorded is not None and recorded != migration.checksum:
            raise MigrationError(
                f"{migration.name} was edited after it was applied; add a new migration instead"
            )


def _grant(conn: psycopg.Connection, app_role: str) -> None:
    from tableside.db.roles import grant

    try:
        with conn.transaction():
            grant(conn, app_role)
    except psycopg.Error as exc:
        raise MigrationError(f"granting {app_role} its privileges failed: {exc}") from exc


def _apply_one(conn: psycopg.Connection, migration: Migration) -> None:
    try:
        with conn.transaction():
            conn.execute(migration.sql.encode())
            conn.execute(
                "INSERT INTO schema_migrations (version, name, checksum) VALUES (%s, %s, %s)",
                (migration.version, migration.name, migration.checksum),
            )
    except psycopg.Error as exc:
        raise MigrationError(f"{migration.name} failed: {exc}") from exc
