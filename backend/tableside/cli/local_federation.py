"""`serve --federation local` (`make run`): a federation on this machine beside the venue, as
a newcomer's first look (issue 49, point 7). It starts `tableside federation serve` as a
child process (its own embedded PostgreSQL in `var/federation/`, port 8100 or the next free),
waits for it to answer, makes the venue's enrolment code once (the venue enrols on its first
round and keeps its credential), and stops it when the venue stops."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

from tableside.db.runtime import StartupError
from tableside.uplink.files import CREDENTIAL

DEMO_VENUE = "Demo venue"
WAIT_SECONDS = 90.0


@contextlib.contextmanager
def local_federation(settings) -> Iterator[object]:
    """The settings with a running local federation's URL (and a code when not enrolled)."""
    folder = Path("var/federation")
    port = _free_port(8100)
    base = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "tableside.cli", "federation"]
    where = ["--data-dir", str(folder / "pgdata"), "--key-file", str(folder / "keys/ack.pem")]
    child = subprocess.Popen([*command, "serve", "--port", str(port), *where])
    try:
        _until_up(base, child)
        code = None
        if not (settings.uplink_folder / CREDENTIAL).is_file():
            made = subprocess.run(
                [*command, "code", DEMO_VENUE, *where],
                capture_output=True,
                text=True,
                timeout=WAIT_SECONDS,
                check=False,
            )
            if made.returncode != 0:
                raise StartupError(f"the local federation made no code: {made.stderr.strip()}")
            code = made.stdout.strip()
        print(f"federation: {base}/ (the demo publishes there: {base}/api/federation/venues)")
        yield settings.replace(federation_url=base, federation_code=code)
    finally:
        child.terminate()
        try:
            child.wait(15)
        except subprocess.TimeoutExpired:
            child.kill()


def _until_up(base: str, child: subprocess.Popen) -> None:
    """Bounded: the child answers /health, or it exited, or WAIT_SECONDS passed."""
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline and child.poll() is None:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{base}/health", timeout=1).status_code == 200:
                return
        time.sleep(0.2)
    raise StartupError(f"the local federation did not start on {base}")


def _free_port(wanted: int) -> int:
    """`wanted`, or the next port nobody listens on."""
    for port in range(wanted, wanted + 50):
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) != 0:
                return port
    raise StartupError(f"no free port from {wanted}")
