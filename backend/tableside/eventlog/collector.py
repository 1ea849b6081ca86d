"""Python's cyclic garbage collector while a rebuild folds the whole log.

A fold from position 0 makes many long-lived objects (a view and an entry list per match,
every event) and no reference cycles of its own; each collection walks them all again, which
measured at about 40 % of a rebuild (`bench/rebuild.py`: 28k → 50k events/s without it).
Reference counting still frees everything a fold drops.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def bulk_fold() -> Iterator[None]:
    """No cyclic collections inside; the collector as it was afterwards."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
