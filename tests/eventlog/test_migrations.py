"""Migrations: applied in order, once; re-applying is a no-op; edits are refused."""

from __future__ import annotations

import shutil
from pathlib import Path

import psycopg
import pytest
from tableside.db import migrations


def _recorded(url: str) -> list[tuple[int, str, str]]:
    with psycopg.connect(url) as conn:
        return conn.execute(
            "SELECT version, name, applied_at::text FROM schema_migrations ORDER BY version"
        ).fetchall()


def test_reapplying_migrations_changes_nothing(database_url: str) -> None:
    before = _recorded(database_url)
    assert migrations.apply(database_url) == []
    assert _recorded(database_url) == before
    assert [v for v, _, _ in before] == [m.version for m in migrations.load()]


def test_schema_version_is_the_last_migration(database_url: str) -> None:
    with psycopg.connect(database_url) as conn:
        assert migrations.schema_version(conn) == migrations.load()[-1].version


def test_a_migration_edited_after_it_was_applied_is_refused(
    database_url: str, tmp_path: Path
) -> None:
    schema = tmp_path / "schema"
    shutil.copytree(migrations.SCHEMA_DIR, schema)
    first = sorted(schema.glob("002_*.sql"))[0]
    first.write_text(first.read_text() + "\n-- edited\n")
    with pytest.raises(migrations.MigrationError, match="edited after it was applied"):
        migrations.apply(database_url, schema)


def test_a_failing_migration_leaves_nothing_behind(database_url: str, tmp_path: Path) -> None:
    schema = tmp_path / "schema"
    shutil.copytree(migrations.SCHEMA_DIR, schema)
    (schema / "099_broken.sql").write_text("CREATE TABLE half_done (x int);\nSELECT nope;\n")
    with pytest.raises(migrations.MigrationError, match=r"099_broken\.sql failed"):
        migrations.apply(database_url, schema)
    with psycopg.connect(database_url) as conn:
        assert conn.execute("SELECT to_regclass('half_done')").fetchone() == (None,)
        assert migrations.schema_version(conn) == migrations.load()[-1].version


def test_no_migrations_found_is_one_clear_error(database_url: str, tmp_path: Path) -> None:
    """Issue 32: a package built without its schema files says so, instead of sending an
    empty grant list to PostgreSQL as bad SQL."""
    with pytest.raises(migrations.MigrationError, match="no migrations found in") as raised:
        migrations.apply(database_url, tmp_path, app_role="tableside_app")
    assert "\n" not in str(raised.value)
