"""A projection: a name, its tables, and apply(conn, items) inside the runner's transaction."""

from __future__ import annotations

from typing import Any, Protocol

import asyncpg
import msgspec

from tableside.match.folding import MatchView, Record

Item = tuple[Record, MatchView]

_encoder = msgspec.json.Encoder(order="sorted")


class Projection(Protocol):
    """A read model: `apply` writes rows for items in position order (tracking is the runner's)."""

    name: str
    tables: tuple[str, ...]

    async def apply(self, conn: asyncpg.Connection, items: list[Item]) -> None: ...


def last_per_match(items: list[Item]) -> list[MatchView]:
    """The newest view of each match in a batch, in order of first appearance."""
    latest: dict[object, MatchView] = {}
    for _, view in items:
        latest[view.match_id] = view
    return list(latest.values())


def to_json(doc: Any) -> str:
    """Canonical JSON text for a jsonb column."""
    return _encoder.encode(doc).decode()
