"""The standby lives through its PostgreSQL stalling (#50): `tableside standby` died with a
traceback when its PostgreSQL did not answer for ~5 s (its look past the connect bound),
and nothing restarted it; under TABLESIDE_STANDBY_REQUIRED every write was then refused.
Its postmaster is stopped (SIGSTOP) until the standby says it did not answer, then goes on:
the standby process is still there, says so in one line, and streams on."""

from __future__ import annotations

import os
import signal

import pytest
from support.standby import health, postmasters, primary_and_standby, wait

pytestmark = pytest.mark.long  # two embedded PostgreSQL servers of their own


def test_the_standby_says_its_postgresql_did_not_answer_and_goes_on() -> None:
    with primary_and_standby() as pair:
        (postmaster,) = postmasters(pair.dirs[1])
        os.kill(postmaster, signal.SIGSTOP)
        try:
            pair.standby.wait_for("did not answer", timeout=120)
        finally:
            os.kill(postmaster, signal.SIGCONT)
        wait(lambda: health(pair.bases[0])["replication"]["protected"], "the standby again")
        assert pair.standby.proc.poll() is None, pair.standby.output()
        assert "Traceback" not in pair.standby.output(), pair.standby.output()
