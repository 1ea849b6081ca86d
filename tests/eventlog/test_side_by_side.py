"""Two stores side by side never touch each other's evidence (#50, decision 0161).

As the issue tried it: `serve --data-dir P/a` and `serve --demo --data-dir P/b` with the
default key and log (before #50 both `P/keys/checkpoint-ed25519.{pem,log}`) and checkpoints
every few seconds: within minutes every checkpoint of the second store was refused ("the
record is disputed … events were removed") and its console told the head judge to accept a
dispute that never happened. Now each store's key and log are in a folder of its own
(`P/keys/a/`, `P/keys/b/`), each log names its store, and a store given the other's log
refuses to start in one line naming both.

Both run for TABLESIDE_SIDE_BY_SIDE_SECONDS (the issue's 10 minutes by default), a match
recorded on the first now and then, the demo playing on the second; every few seconds both
must answer `/health` ok with the record ok.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import psutil
import pytest
from support.harness import TEST_SERVER_ENV, Api, free_port
from test_witnesses import TABLESIDE

pytestmark = pytest.mark.long

# 90 s in `make test` (30 checkpoints of each store; main's shared log refused the second
# store's first): TABLESIDE_SIDE_BY_SIDE_SECONDS=600 runs the ten minutes (run so once,
# green, by the branch that built it).
SECONDS = float(os.environ.get("TABLESIDE_SIDE_BY_SIDE_SECONDS", "90"))
_ENV = {
    "DATABASE_URL": "",
    "PORT": "",
    "HOST": "",
    "TABLESIDE_KEY_FILE": "",
    "TABLESIDE_CHECKPOINT_LOG": "",
    "TABLESIDE_CHECKPOINT_MINUTES": "0.05",  # every 3 s
    **TEST_SERVER_ENV,
}


@pytest.fixture
def folder() -> Iterator[Path]:
    """P, outside pytest's temp root (the embedded server's user must reach it)."""
    work = Path(tempfile.mkdtemp(prefix="tableside-side-"))
    yield work
    for proc in psutil.process_iter(["name", "cmdline"]):
        if proc.info["name"] == "postgres" and str(work) in " ".join(proc.info["cmdline"] or []):
            proc.kill()
    shutil.rmtree(work, ignore_errors=True)


class _Serve:
    def __init__(self, data_dir: Path, *flags: str, env: dict[str, str] | None = None) -> None:
        self.port = free_port()
        self.out = data_dir.parent / f"{data_dir.name}.out"
        with self.out.open("wb") as out:
            self.proc = subprocess.Popen(
                [TABLESIDE, "serve", "--port", str(self.port), "--data-dir", str(data_dir), *flags],
                env={**os.environ, **_ENV, **(env or {})},
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        self.base = f"http://127.0.0.1:{self.port}"

    def health(self, timeout: float = 120) -> dict:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, self.out.read_text()[-3000:]
            try:
                return httpx.get(self.base + "/health", timeout=5).json()
            except httpx.TransportError:
                time.sleep(0.2)
        raise AssertionError("no /health answer")

    def latest(self) -> int:
        got = httpx.get(self.base + "/api/checkpoints/latest", timeout=10)
        return got.json()["position"] if got.status_code == 200 else 0

    def stop(self) -> str:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=30)
        return self.out.read_text()


def _record_ok(serve: _Serve) -> None:
    health = serve.health()
    assert health["status"] == "ok" and health["record"] == {"state": "ok"}, health


def test_two_stores_side_by_side_keep_their_own_key_and_log(folder: Path) -> None:
    a, b = _Serve(folder / "a"), _Serve(folder / "b", "--demo")
    outputs = ""
    try:
        _record_ok(a)
        _record_ok(b)
        head = Api(a.base).login()
        table, seen_b = 1, 0
        deadline = time.monotonic() + SECONDS
        while time.monotonic() < deadline:
            made = head.create(100 + table, ["Mari"], ["Ott"])  # a table of its own each
            assert made.status_code == 201, made.text
            table += 1
            time.sleep(3)
            _record_ok(a)
            _record_ok(b)
            seen_b = max(seen_b, b.latest())
        assert a.latest() > 0 and seen_b > 0, (a.latest(), seen_b)
    finally:
        outputs = a.stop() + b.stop()
    assert "DISPUTED" not in outputs and "refused" not in outputs, outputs[-3000:]
    logs = [folder / "keys" / name / "checkpoint-ed25519.log" for name in ("a", "b")]
    stores = [json.loads(log.read_bytes().splitlines()[0])["store"] for log in logs]
    assert stores[0] != stores[1], stores


def test_a_store_given_another_stores_log_refuses_in_one_line_naming_both(folder: Path) -> None:
    a = _Serve(folder / "a")
    try:
        _record_ok(a)
        head = Api(a.base).login()
        assert head.create(1, ["Mari"], ["Ott"]).status_code == 201
    finally:
        a.stop()  # its shutdown checkpoint opens its log
    log = folder / "keys" / "a" / "checkpoint-ed25519.log"
    theirs = json.loads(log.read_bytes().splitlines()[0])["store"]
    key = folder / "keys" / "a" / "checkpoint-ed25519.pem"
    b = _Serve(folder / "b", "--demo", env={"TABLESIDE_KEY_FILE": str(key)})
    try:
        code = b.proc.wait(timeout=180)
    finally:
        out = b.stop()
    assert code == 1, out[-3000:]
    line = [x for x in out.splitlines() if "belongs to store" in x]
    assert len(line) == 1 and "Traceback" not in out, out[-3000:]
    assert f"belongs to store {theirs[:16]}…" in line[0] and "not to this store" in line[0], line
