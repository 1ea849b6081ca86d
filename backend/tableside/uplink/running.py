"""The uplink while serving: one thread per store (the worker that holds the folder's lock;
the others only read what it saw), repeating `Pusher.step` (`db/background.repeating`, the
one home of a repeating thread); a caught-up step waits on its own connection's LISTEN for
the store's next event, at most `uplink_seconds`, so an event is on its way at once."""

from __future__ import annotations

import contextlib
import fcntl
from collections.abc import Iterator
from typing import IO

from tableside.db.background import repeating
from tableside.settings import Settings
from tableside.uplink.pusher import Pusher

PAUSE = 0.05  # between steps: a round that waited for the store is the rhythm


@contextlib.contextmanager
def uplink(settings: Settings, public_key: str) -> Iterator[None]:
    """Push to `settings.federation_url` while the block runs (nothing without one)."""
    if not settings.federation_url or not settings.database_url:
        yield
        return
    folder = settings.uplink_folder
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    lock = _take(folder)
    if lock is None:  # another worker of this store pushes
        yield
        return
    pusher = Pusher(
        settings.database_url,
        settings.federation_url,
        folder,
        public_key,
        code=settings.federation_code,
        backoff_max=settings.uplink_backoff_max,
        every=settings.uplink_seconds,
        heartbeat=settings.uplink_heartbeat,
    )
    try:
        # a caught-up step waits (at most `every`) for the store's NOTIFY itself
        with repeating(pusher.step, PAUSE, "federation-uplink"):
            yield
    finally:
        pusher.close()
        lock.close()


def _take(folder) -> IO[str] | None:
    handle = open(folder / "lock", "a")  # noqa: SIM115 - held for the life of the uplink
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        return None
    return handle
