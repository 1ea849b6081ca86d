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
    pool: Any = None
    key: Ed25519PrivateKey | None = None
