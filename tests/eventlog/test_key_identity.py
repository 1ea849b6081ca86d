"""Keys are an identity, not a file that happens to be there (#41): `tableside serve` on a
store signed by another key refuses in one line naming both fingerprints, and a missing key
file beside a signed store is said plainly: no new key is made."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from support.harness import free_port
from tableside.eventlog.checkpoints import load_or_create_key, public_hex
from test_witnesses import TABLESIDE, audit


@pytest.fixture
def signed_store(streams, app_url: str, database_url: str) -> str:
    """The tamper tests' store with one checkpoint signed by the session's key."""
    done = audit(app_url, "checkpoint")
    assert done.returncode == 0, done.stderr
    return database_url


def _serve(url: str, key: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": url, "TABLESIDE_KEY_FILE": str(key), "PORT": ""}
    cmd = [TABLESIDE, "serve", "--port", str(free_port()), "--workers", "1"]
    return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)


def test_serve_with_another_key_file_exits_1_naming_both_fingerprints(
    signed_store, checkpoint_key: Path, tmp_path: Path
) -> None:
    other = tmp_path / "keys" / "other.pem"
    stranger = public_hex(load_or_create_key(other))
    done = _serve(signed_store, other)
    assert done.returncode == 1, (done.stdout, done.stderr)
    line = done.stderr.strip()
    assert line.count("\n") == 0 and "Traceback" not in line, line
    ours = public_hex(load_or_create_key(checkpoint_key))
    assert f"signed by key {ours[:16]}…" in line and f"holds key {stranger[:16]}…" in line, line


def test_serve_without_the_key_file_says_it_is_missing_and_makes_none(
    signed_store, checkpoint_key: Path, tmp_path: Path
) -> None:
    missing = tmp_path / "keys" / "checkpoint-ed25519.pem"
    done = _serve(signed_store, missing)
    assert done.returncode == 1, (done.stdout, done.stderr)
    ours = public_hex(load_or_create_key(checkpoint_key))
    assert f"{missing} is missing" in done.stderr and ours[:16] in done.stderr, done.stderr
    assert not missing.exists()
