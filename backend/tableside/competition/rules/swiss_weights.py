"""The weight of each legal Swiss board, so that one maximum-weight matching settles the round
lexicographically: least score difference first (pairing within score groups), then the top
half of a score group against its bottom half, then the opening shot's alternation
(EKML §31(1)2). The bye counts as a board against the lowest score; among equals it goes to
the last in the table (EKML §32(2) note 3)."""

from itertools import combinations
from typing import Protocol

from .swiss_search import BYE


class Entry(Protocol):
    id: str
    score: float
    rank: int
    openings: int
    opened_last: bool
    played: int


def weights(order: list[Entry]) -> dict[frozenset, int]:
    """Every possible board's integer weight, for `order` ranked best first."""
    n = len(order)
    boards = n // 2 + 1
    colour = 1
    half = colour * 2 * boards + 1
    score = half * (n + 1) * boards + 1
    units = {e.id: round(e.score * 4) for e in order}
    low = min(units.values(), default=0)
    spread = max(units.values(), default=0) - low
    base = score * (spread * spread + 1) + half * (n + 1) + 2 * colour + 1
    group = _group_places(order, units)
    out: dict[frozenset, int] = {}
    for a, b in combinations(order, 2):
        diff = units[a.id] - units[b.id]
        misfit = _misfit(group[a.id], group[b.id]) if diff == 0 else 0
        out[frozenset((a.id, b.id))] = (
            base - score * diff * diff - half * misfit - colour * _clash(a, b)
        )
    for place, e in enumerate(order):
        diff = units[e.id] - low
        out[frozenset((e.id, BYE))] = base - score * diff * diff - half * (n - 1 - place)
    return out


def _group_places(order: list[Entry], units: dict[str, int]) -> dict[str, tuple[int, int]]:
    """Each entrant's place within its score group and the group's size."""
    groups: dict[int, list[str]] = {}
    for e in order:
        groups.setdefault(units[e.id], []).append(e.id)
    return {x: (i, len(ids)) for ids in groups.values() for i, x in enumerate(ids)}


def _misfit(a: tuple[int, int], b: tuple[int, int]) -> int:
    """How far a pairing inside a score group is from top half against bottom half."""
    return abs(abs(a[0] - b[0]) - a[1] // 2)


def _clash(a: Entry, b: Entry) -> int:
    """Opening-shot clashes: both opened last time, or both have opened more (or less)."""
    same_last = a.played > 0 and b.played > 0 and a.opened_last == b.opened_last
    lean_a, lean_b = 2 * a.openings - a.played, 2 * b.openings - b.played
    same_lean = lean_a * lean_b > 0
    return int(same_last) + int(same_lean)
