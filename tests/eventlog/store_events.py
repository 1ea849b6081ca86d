"""Event types used only by the store's tests."""

from __future__ import annotations

import msgspec


class PuckPocketed(msgspec.Struct, frozen=True, tag="test.PuckPocketed"):
    """A test event with a couple of fields."""

    player: str
    puck: int


class GameClosed(msgspec.Struct, frozen=True, tag="test.GameClosed"):
    """A second test event type."""

    winner: str


class NotRegistered(msgspec.Struct, frozen=True, tag="test.NotRegistered"):
    """Never registered: appending it must fail before anything is written."""

    note: str


TEST_EVENT_TYPES = (PuckPocketed, GameClosed)
