"""The points table (decision 0170): an event's placing × its level. Place 1–16 score from
`BASE`, every later place `BASE_LATER`; the level multiplies (a championship thrice, a
ranking event twice, an open event once). A shared place (5.–8.) scores its first place's
points for each holder; each player of a pair scores the pair's points."""

from __future__ import annotations

from collections.abc import Iterable

from .results import EventResult, Level

BASE = (25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 1)
BASE_LATER = 1
LEVEL_FACTOR: dict[Level, int] = {"championship": 3, "ranking": 2, "open": 1}


def place_points(place: int, level: Level) -> int:
    """The table's cell: `place` at an event of `level`."""
    base = BASE[place - 1] if place <= len(BASE) else BASE_LATER
    return base * LEVEL_FACTOR[level]


def event_points(event: EventResult) -> dict[str, tuple[int, int]]:
    """Each placed player → (their place, the points it scores) at `event`."""
    scored: dict[str, tuple[int, int]] = {}
    for placing in event.placings:
        for player in placing.players:
            scored[player] = (placing.place, place_points(placing.place, event.level))
    return scored


def ranked(totals: dict[str, float], descending: bool = True) -> list[tuple[int, str]]:
    """(place, player) by `totals`, best first; equal totals share a place, listed by id."""
    order = sorted(totals, key=lambda p: (-totals[p] if descending else totals[p], p))
    places: list[tuple[int, str]] = []
    for index, player in enumerate(order):
        tied = index and totals[order[index - 1]] == totals[player]
        places.append((places[-1][0] if tied else index + 1, player))
    return places


def players_of(events: Iterable[EventResult]) -> set[str]:
    """Everyone placed or playing in `events`."""
    found: set[str] = set()
    for event in events:
        found.update(p for placing in event.placings for p in placing.players)
        found.update(p for match in event.matches for p in (*match.a, *match.b))
    return found
