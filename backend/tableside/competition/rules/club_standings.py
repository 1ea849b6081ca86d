"""Individual-team events (EKML §6(4)): each club's score from its members' results, the
guide may count only the best N (one guide: the best 6)."""

import msgspec

from .standings import StandingsView, standings


class ClubRow(msgspec.Struct, frozen=True):
    """One club's line: place, points counted and whose results counted."""

    place: int
    club: str
    points: float
    counted: tuple[str, ...]


def club_standings(view: StandingsView, best: int | None = None) -> tuple[ClubRow, ...]:
    """Clubs ranked by the sum of their best members' points; ties share the place."""
    state = view.competition
    clubs: dict[str, list[tuple[float, str]]] = {}
    for row in standings(view):
        club = state.entrants[row.entrant].members[0].club
        if club:
            clubs.setdefault(club, []).append((row.points, row.entrant))
    totals = []
    for club, scores in clubs.items():
        top = sorted(scores, key=lambda s: -s[0])[:best]
        totals.append((sum(p for p, _ in top), club, tuple(e for _, e in top)))
    totals.sort(key=lambda t: (-t[0], t[1]))
    return tuple(
        ClubRow(1 + sum(1 for o in totals if o[0] > t[0]), t[1], t[0], t[2]) for t in totals
    )
