"""Canonical JSON for the read models' jsonb columns (every projection writes with it)."""

from __future__ import annotations

from typing import Any

import msgspec

_encoder = msgspec.json.Encoder(order="sorted")


def to_json(doc: Any) -> str:
    """Canonical JSON text for a jsonb column."""
    return _encoder.encode(doc).decode()
