"""A match projection: a name, its tables, and apply(conn, items) in the runner's transaction."""

from __future__ import annotations

from typing import Protocol

import asyncpg

from tableside.eventlog.base import to_json
from tableside.plugins.korona.folding import MatchView, Record

Item = tuple[Record, MatchView]


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


__all__ = ["Item", "Projection", "last_per_match", "to_json"]
