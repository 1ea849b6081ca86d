"""The uplink while serving: one thread per store (the worker that holds the folder's lock;
the others only read what it saw), repeating `Pusher.step` every `uplink_seconds`
(`db/background.repeating`, the one home of a repeating thread)."""

from __future__ import annotations

import contextlib
import fcntl
from collections.abc import Iterator
from typing import IO

from tableside.db.background import repeating
from tableside.settings import Settings
from tableside.uplink.pusher import Pusher


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
        heartbeat=settings.uplink_heartbeat,
    )
    try:
        with repeating(pusher.step, settings.uplink_seconds, "federation-uplink"):
            yield
    finally:
        lock.close()


def _take(folder) -> IO[str] | None:
    handle = open(folder / "lock", "a")  # noqa: SIM115 - held for the life of the uplink
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        return None
    return handle
