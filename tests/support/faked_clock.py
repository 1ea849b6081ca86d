"""A server whose wall clock is moved by libfaketime (only that process: PostgreSQL and the
test keep the real time), for rules that wait minutes: write an offset to the `clock` file
("+125") and the server's next clock read is that far on."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from support.harness import Server

LIB = Path("/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1")


@pytest.fixture(scope="module")
def clock(tmp_path_factory) -> Path:
    """The file libfaketime reads on every clock call: the server's offset from real time."""
    if not LIB.is_file():
        if os.environ.get("CI") == "true":
            pytest.fail("libfaketime missing: run `make clock-tools` as root", pytrace=False)
        pytest.skip("libfaketime missing: run `make clock-tools` as root (faketime)")
    path = tmp_path_factory.mktemp("clock") / "offset"
    path.write_text("+0\n")
    return path


@pytest.fixture(scope="module")
def server(module_database_url: str, clock: Path):
    # The wall clock only: with the monotonic clock moved too, every timer of the server's
    # event loop fired at once — uvicorn's keep-alive closed the test's pooled connection
    # as its next request arrived (a connection reset under load).
    env = {
        "LD_PRELOAD": str(LIB),
        "FAKETIME_TIMESTAMP_FILE": str(clock),
        "FAKETIME_NO_CACHE": "1",
        "FAKETIME_DONT_FAKE_MONOTONIC": "1",
    }
    srv = Server(module_database_url, env=env).start()
    yield srv
    # Under a moved clock the event store's psycopg pool waits out its 5 s close timeouts
    # (its scheduler thread's timed wait): nothing is left to write, so do not wait for it.
    srv.stop(grace=1)
