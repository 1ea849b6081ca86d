"""Issue 32: the wheel works anywhere. Built from the checkout, installed into a fresh venv
outside it, `tableside serve` started in an empty directory migrates a new database from the
migrations the wheel carries and serves the faces the wheel carries."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import psycopg
import pytest
from support.harness import free_port, wait_for
from tableside.db import roles
from tableside.db.url import with_dbname

ROOT = Path(__file__).resolve().parents[2]
# What infra/Dockerfile's build stage copies: the wheel is built from these alone.
SOURCES = ("pyproject.toml", "README.md", "backend", "schema", "pwa")


@pytest.fixture(scope="module")
def installed() -> Iterator[Path]:
    """A fresh venv (outside the checkout) with only the wheel installed; its dependencies
    are the test venv's (a .pth line), so nothing is downloaded."""
    work = Path(tempfile.mkdtemp(prefix="tableside-wheel-"))
    try:
        yield _install(_build(work), work / "venv")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _build(work: Path) -> Path:
    source = work / "source"
    source.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            ignore = shutil.ignore_patterns("__pycache__", "*.egg-info")
            shutil.copytree(ROOT / name, source / name, symlinks=True, ignore=ignore)
        else:
            shutil.copy2(ROOT / name, source / name)
    _pip("wheel", "--no-deps", "--no-build-isolation", "-w", str(work / "dist"), str(source))
    (wheel,) = (work / "dist").glob("tableside-*.whl")
    return wheel


def _install(wheel: Path, venv: Path) -> Path:
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    _pip("--python", str(python), "install", "--no-deps", "--no-index", str(wheel))
    site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    (Path(site) / "test-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return venv


def _pip(*args: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pip", "-q", *args], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]


@pytest.fixture
def empty_database(pg_server_url: str) -> tuple[str, str]:
    """A new database with no tables: (owner URL, server role URL)."""
    name = f"tableside_wheel_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(pg_server_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')  # type: ignore[arg-type]
    return roles.setup(with_dbname(pg_server_url, name))


def test_the_wheel_serves_from_an_empty_directory(
    installed: Path, empty_database: tuple[str, str], tmp_path: Path
) -> None:
    where = subprocess.run(
        [installed / "bin" / "python", "-c", "import tableside; print(tableside.__file__)"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert where.startswith(str(installed)) and str(ROOT) not in where, where
    owner_url, app_url = empty_database
    port = free_port()
    env = {**os.environ, "DATABASE_URL": app_url, "TABLESIDE_MIGRATE_URL": owner_url}
    proc = subprocess.Popen(
        [installed / "bin" / "tableside", "serve", "--port", str(port), "--workers", "1"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: _answers(base, proc), timeout=60)
        assert httpx.get(f"{base}/health", timeout=5).status_code == 200
        page = httpx.get(f"{base}/", timeout=5)
        assert page.status_code == 200 and "<html" in page.text
        assert httpx.get(f"{base}/sw.js", timeout=5).status_code == 200
        assert httpx.get(f"{base}/i18n/en.json", timeout=5).status_code == 200
    finally:
        proc.terminate()
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err[-3000:]
    assert "Traceback" not in err, err[-3000:]
    assert "migrations applied now" in out and "(0 migrations" not in out, out
    assert list(tmp_path.iterdir()) == []  # nothing written where it was started


def _answers(base: str, proc: subprocess.Popen[str]) -> bool:
    if proc.poll() is not None:
        raise AssertionError(f"serve exited early: {proc.communicate()}")
    try:
        return httpx.get(f"{base}/health", timeout=2).status_code == 200
    except httpx.TransportError:
        return False
