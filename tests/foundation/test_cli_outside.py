"""Issue 32: the maintenance commands run outside the checkout against a store that is not
there say so in one line, naming where they looked, and create nothing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
from tableside.db.url import with_dbname

TABLESIDE = str(Path(sys.executable).with_name("tableside"))
COMMANDS = (["audit", "verify"], ["projections", "rebuild"])


def _run(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [TABLESIDE, *args],
        cwd=cwd,
        env={**os.environ, "DATABASE_URL": "", **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_a_data_dir_with_no_store_is_one_line_and_nothing_is_made(
    command: list[str], tmp_path: Path
) -> None:
    for args in (command, [*command, "--data-dir", str(tmp_path / "elsewhere" / "pgdata")]):
        done = _run(args, tmp_path)
        assert done.returncode != 0
        assert "Traceback" not in done.stderr
        assert done.stderr.strip().count("\n") == 0, done.stderr
        assert "no Tableside store in" in done.stderr
        looked = "var/pgdata" if len(args) == 2 else str(tmp_path / "elsewhere" / "pgdata")
        assert looked in done.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_a_database_with_no_store_is_one_line_and_nothing_is_made(
    command: list[str], tmp_path: Path, pg_server_url: str
) -> None:
    name = f"tableside_empty_{tmp_path.name[-8:].lower()}".replace("-", "_")
    with psycopg.connect(pg_server_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')  # type: ignore[arg-type]
    url = with_dbname(pg_server_url, name)
    done = _run(command, tmp_path, DATABASE_URL=url)
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().count("\n") == 0, done.stderr
    assert "no Tableside store in PostgreSQL" in done.stderr
    with psycopg.connect(url) as conn:
        tables = conn.execute(
            "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'"
        ).fetchone()
    assert tables == (0,)
    assert list(tmp_path.iterdir()) == []
