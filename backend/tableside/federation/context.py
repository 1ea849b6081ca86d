"""What the federation's handlers share: its settings, its pool, its signing key."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from tableside.federation.config import FederationSettings


@dataclass
class FederationContext:
    """Filled by the lifespan (`app.py`): the pool and the key exist while it serves."""

    settings: FederationSettings
    pool: Any = None  # the primary's: every write, and what must read its own writes
    read_pool: Any = None  # a read replica's for the public pages (the primary's without one)
    key: Ed25519PrivateKey | None = None
    archivist: Any = None  # federation/archiving.Archivist: the archive after each kept push
