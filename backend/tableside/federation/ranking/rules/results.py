"""What a ranking list is computed from: the finished events of one season's list, each with
its placings and the matches played in it, every player named by their federation id (the
register's, never a spelling: a venue's entrant counts only once linked, decision 0171)."""

from __future__ import annotations

from typing import Literal

import msgspec

Level = Literal["championship", "ranking", "open"]
Winner = Literal["a", "b", "draw"]


class RatedMatch(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One played match: its id (the venue's match, for the explanation), both sides' players
    (one each in singles, two in pairs) and who won. A forfeit or walkover is not played and
    is never handed in: it moves no rating (decision 0170)."""

    match_id: str
    a: tuple[str, ...]
    b: tuple[str, ...]
    winner: Winner


class Placing(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A final place and who holds it (a pair's two players, or one): shared places repeat
    the same `place` (a bracket's 5.–8.)."""

    place: int
    players: tuple[str, ...]


class EventResult(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One finished event of the season: `held_on` its ISO date (the edition's date), `level`
    the federation's grading of it (the points table's column), matches in the order played."""

    event_id: str
    name: str
    held_on: str
    level: Level
    placings: tuple[Placing, ...]
    matches: tuple[RatedMatch, ...]
