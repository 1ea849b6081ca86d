"""One home for "do this every so often while serving": a daemon thread, stopped on exit."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator


@contextlib.contextmanager
def repeating(step: Callable[[], None], every: float, name: str) -> Iterator[None]:
    """Call `step` every `every` seconds in a thread of its own until the block ends (then
    wait for a running step); `step` deals with its own errors."""
    done = threading.Event()

    def loop() -> None:
        while not done.wait(every):
            step()

    thread = threading.Thread(target=loop, name=name, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()
