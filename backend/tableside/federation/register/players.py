"""Register players: a federation id, a name held to the name rule of every name (RFC 8266's
nickname profile, and no look-alike of another registered name: `tableside.names`), club,
licence, class. A rename is a new row of the player's names; the id, and every result linked
to it, stays (decision 0171)."""

from __future__ import annotations

from typing import Literal

import asyncpg
import msgspec

from tableside.names import person_name, refuse_lookalike, skeleton
from tableside.rule_error import RuleError

PlayerClass = Literal["youth", "main", "veterans"]
_COLUMNS = "federation_id, name, club, licence, class"


class Player(msgspec.Struct, frozen=True):
    """A register row as read."""

    federation_id: int
    name: str
    club: str
    licence: str
    player_class: PlayerClass


class NoSuchPlayer(RuleError):
    """A federation id the register does not hold (404 at the door)."""

    def __init__(self, federation_id: int) -> None:
        message = f"the register holds no player {federation_id}"
        super().__init__(
            "register", message, "federation_id", "register_no_player", {"id": str(federation_id)}
        )


async def _checked_name(conn: asyncpg.Connection, raw: str, federation_id: int = 0) -> str:
    """`raw` as the name rule stores it, refused when it looks like another player's name."""
    name = person_name(raw, "name")
    others = await conn.fetch(
        "SELECT name FROM register_players WHERE skeleton = $1 AND federation_id <> $2",
        skeleton(name),
        federation_id,
    )
    refuse_lookalike(name, (row["name"] for row in others), "name")
    return name


async def add_player(
    conn: asyncpg.Connection,
    name: str,
    by: str,
    club: str = "",
    licence: str = "",
    player_class: PlayerClass = "main",
) -> Player:
    """Register a new player; their first name is the first row of their names."""
    async with conn.transaction():
        stored = await _checked_name(conn, name)
        row = await conn.fetchrow(
            "INSERT INTO register_players (name, skeleton, club, licence, class, registered_by)"
            f" VALUES ($1, $2, $3, $4, $5, $6) RETURNING {_COLUMNS}",
            stored,
            skeleton(stored),
            club,
            licence,
            player_class,
            by,
        )
        await conn.execute(
            "INSERT INTO register_names (federation_id, seq, name, changed_by)"
            " VALUES ($1, 1, $2, $3)",
            row["federation_id"],
            stored,
            by,
        )
    return _player(row)


async def rename(conn: asyncpg.Connection, federation_id: int, name: str, by: str) -> Player:
    """A new name for a player: the id and its history stay, the old name is kept."""
    async with conn.transaction():
        await conn.execute(
            "SELECT 1 FROM register_players WHERE federation_id = $1 FOR UPDATE", federation_id
        )
        stored = await _checked_name(conn, name, federation_id)
        row = await conn.fetchrow(
            f"UPDATE register_players SET name = $2, skeleton = $3 WHERE federation_id = $1"
            f" RETURNING {_COLUMNS}",
            federation_id,
            stored,
            skeleton(stored),
        )
        if row is None:
            raise NoSuchPlayer(federation_id)
        await conn.execute(
            "INSERT INTO register_names (federation_id, seq, name, changed_by) SELECT $1,"
            " coalesce(max(n.seq), 0) + 1, $2, $3 FROM register_names n WHERE n.federation_id = $1",
            federation_id,
            stored,
            by,
        )
    return _player(row)


async def player(conn: asyncpg.Connection, federation_id: int) -> Player:
    """One player, or NoSuchPlayer."""
    row = await conn.fetchrow(
        f"SELECT {_COLUMNS} FROM register_players WHERE federation_id = $1", federation_id
    )
    if row is None:
        raise NoSuchPlayer(federation_id)
    return _player(row)


async def names_of(conn: asyncpg.Connection, federation_id: int) -> list[str]:
    """Every name the player has carried, the first first."""
    rows = await conn.fetch(
        "SELECT name FROM register_names WHERE federation_id = $1 ORDER BY seq", federation_id
    )
    return [row["name"] for row in rows]


def _player(row: asyncpg.Record) -> Player:
    return Player(row["federation_id"], row["name"], row["club"], row["licence"], row["class"])
