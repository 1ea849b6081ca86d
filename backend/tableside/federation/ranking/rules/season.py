"""The season's list, edition by edition (decision 0170): after each finished event (in the
order held: its date, then its id) a new edition, dated the event's date, with both views —
points (the sum of the table's points) and rating (the ordinal) — and, for every player the
event moved, the change and what moved it: the place that scored, the matches that rated."""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from .points import event_points, ranked
from .rating import Rating, model, rate_event
from .results import EventResult


class PointsEntry(msgspec.Struct, frozen=True):
    """A row of the points view: place (shared when equal), player, points, events scored."""

    place: int
    player: str
    points: int
    events: int


class RatingEntry(msgspec.Struct, frozen=True):
    """A row of the rating view: place by ordinal, player, μ, σ, ordinal, matches rated."""

    place: int
    player: str
    mu: float
    sigma: float
    ordinal: float
    matches: int


class Change(msgspec.Struct, frozen=True):
    """What one event did to one player, and why: the place that scored its points (0: none)
    and the matches that moved the rating (their ordinal before: None for a new player)."""

    player: str
    place: int
    points_before: int
    points_after: int
    ordinal_before: float | None
    ordinal_after: float | None
    matches: tuple[str, ...]


class Edition(msgspec.Struct, frozen=True):
    """The list as published after one event, on that event's date."""

    number: int
    published_on: str
    event_id: str
    event_name: str
    points: tuple[PointsEntry, ...]
    rating: tuple[RatingEntry, ...]
    changes: tuple[Change, ...]


class _Tally:
    """The running state: points, events scored, ratings, matches rated."""

    def __init__(self) -> None:
        self.points: dict[str, int] = {}
        self.events: dict[str, int] = {}
        self.ratings: dict[str, Rating] = {}
        self.matches: dict[str, int] = {}


def in_order(events: Iterable[EventResult]) -> list[EventResult]:
    """The events as the season held them: by date, then id."""
    return sorted(events, key=lambda e: (e.held_on, e.event_id))


def season_list(events: Iterable[EventResult]) -> tuple[Edition, ...]:
    """Every edition of the season's list, the newest last."""
    tally, pl = _Tally(), model()
    editions = []
    for number, event in enumerate(in_order(events), start=1):
        points_before = dict(tally.points)
        ordinals_before = {p: r.ordinal for p, r in tally.ratings.items()}
        scored = event_points(event)
        for player, (_, points) in scored.items():
            tally.points[player] = tally.points.get(player, 0) + points
            tally.events[player] = tally.events.get(player, 0) + 1
        moved = rate_event(tally.ratings, event, pl)
        for player, ids in moved.items():
            tally.matches[player] = tally.matches.get(player, 0) + len(ids)
        changes = _changes(tally, scored, moved, points_before, ordinals_before)
        editions.append(_edition(number, event, tally, changes))
    return tuple(editions)


def _changes(tally, scored, moved, points_before, ordinals_before) -> tuple[Change, ...]:
    changed = sorted(set(scored) | set(moved))
    return tuple(
        Change(
            player=player,
            place=scored.get(player, (0, 0))[0],
            points_before=points_before.get(player, 0),
            points_after=tally.points.get(player, 0),
            ordinal_before=ordinals_before.get(player),
            ordinal_after=tally.ratings[player].ordinal if player in tally.ratings else None,
            matches=moved.get(player, ()),
        )
        for player in changed
    )


def _edition(number: int, event: EventResult, tally: _Tally, changes) -> Edition:
    points = tuple(
        PointsEntry(place, p, tally.points[p], tally.events[p]) for place, p in ranked(tally.points)
    )
    ordinals = {p: r.ordinal for p, r in tally.ratings.items()}
    rating = tuple(
        RatingEntry(
            place, p, tally.ratings[p].mu, tally.ratings[p].sigma, ordinals[p], tally.matches[p]
        )
        for place, p in ranked(ordinals)
    )
    return Edition(number, event.held_on, event.event_id, event.name, points, rating, changes)
