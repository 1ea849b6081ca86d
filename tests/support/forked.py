"""Test servers forked from one warm process instead of started cold (decision 0223).

A cold `python -m uvicorn --factory tableside.server.asgi:from_env` spends most of its start
importing the server (~0.6 of its ~0.8 CPU-seconds): the suite starts a few hundred, on two
cores. A forkserver (multiprocessing's, one per pytest worker) imports uvicorn and the server
once; each test server is a fork of it that sets its own environment, working folder and
output, then runs uvicorn's own command line with the arguments a cold start would get. What
the server does from there is the cold start's: nothing of the backend reads the environment
at import time. A server under a moved clock or a preloaded library (LD_PRELOAD, FAKETIME)
needs a fresh exec, and starts cold as before; TABLESIDE_TEST_FORK=0 starts every one cold.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import signal
import subprocess
import sys
from collections.abc import Mapping, Sequence

_PRELOAD = ["uvicorn.main", "tableside.server.asgi"]
_COLD = ("LD_", "FAKETIME", "PYTHON")  # what only a fresh exec of Python takes up
_context = None


def forkable(factory: str, env: Mapping[str, str]) -> bool:
    """Whether a server of `factory` with `env` (its own additions) may be a fork."""
    return (
        os.environ.get("TABLESIDE_TEST_FORK", "1") != "0"
        and factory.startswith("tableside.")
        and not any(key.startswith(_COLD) for key in env)
    )


def _forkserver():
    global _context
    if _context is None:
        _context = multiprocessing.get_context("forkserver")
        _context.set_forkserver_preload(_PRELOAD)
    return _context


def _run(argv: Sequence[str], env: Mapping[str, str], cwd: str, output: str | None) -> None:
    """In the fork: become the process a cold start would have been, then run uvicorn."""
    os.environ.clear()
    os.environ.update(env)
    os.chdir(cwd)
    random.seed()  # every fork would otherwise share the warm process's sequence
    signal.signal(signal.SIGINT, signal.default_int_handler)
    if output is not None:
        fd = os.open(output, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        os.close(fd)
    import uvicorn.main  # noqa: F401  (preloaded: already imported in the forkserver)

    # the module's click command (the package's `uvicorn.main` names the command itself)
    sys.modules["uvicorn.main"].main.main(args=list(argv), prog_name="uvicorn")


class Forked:
    """A forked server with the part of `subprocess.Popen` the tests use."""

    def __init__(self, argv: Sequence[str], env: Mapping[str, str], output: str | None) -> None:
        ctx = _forkserver()
        self._process = ctx.Process(
            target=_run, args=(list(argv), dict(env), os.getcwd(), output), daemon=True
        )
        self._process.start()
        self.pid = self._process.pid

    def poll(self) -> int | None:
        return self._process.exitcode

    def wait(self, timeout: float | None = None) -> int:
        self._process.join(timeout)
        if self._process.exitcode is None:
            raise subprocess.TimeoutExpired("forked server", timeout or 0)
        return self._process.exitcode

    def send_signal(self, sig: int) -> None:
        if self._process.exitcode is None:
            os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)
