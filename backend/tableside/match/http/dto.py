"""API bodies every slice shares: bounded scalars, what a command stored (kept apart from the
domain; a discipline's request bodies are its own, `plugins/<name>/http/dto.py`)."""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

import msgspec

Name = Annotated[str, msgspec.Meta(min_length=1, max_length=80)]
Version = Annotated[int, msgspec.Meta(ge=0, le=10**9)]
Table = Annotated[int, msgspec.Meta(ge=1, le=9999)]
Short = Annotated[str, msgspec.Meta(max_length=200)]


class StoredEventOut(msgspec.Struct):
    """An event as stored by a command."""

    version: int
    position: int
    type: str
    event: msgspec.Raw


class CommandResponse(msgspec.Struct):
    """What a command stored; a retry (same command_id) gets exactly this again."""

    match_id: UUID
    command_id: UUID
    first_version: int
    last_version: int
    positions: list[int]
    events: list[StoredEventOut]


Doc = dict[str, Any]
