"""Swiss pairing: score groups, no repeat pairings, one bye at most (EKML §32(2) note 3)."""

import random

import msgspec

from .errors import CompetitionRuleError


class SwissEntry(msgspec.Struct, frozen=True):
    """One eligible entrant as the pairing sees it; `rank` is the drawn starting number."""

    id: str
    score: float
    rank: int
    opponents: frozenset[str] = frozenset()
    had_bye: bool = False
    openings: int = 0
    opened_last: bool = False


class SwissRound(msgspec.Struct, frozen=True):
    """A paired round: boards with the opening side listed first, and the bye if any."""

    boards: tuple[tuple[str, str], ...]
    bye: str | None = None


def pair_swiss(entries: list[SwissEntry], seed: int) -> SwissRound:
    """Pair a round: the bye to the lowest who had none (EKML §32(2) note 3), then top down
    within score groups, never repeating a pairing, the opening shot alternated."""
    order = sorted(entries, key=lambda e: (-e.score, e.rank))
    bye, rest = _choose_bye(order)
    pairs = _pair(tuple(rest), set())
    if pairs is None:
        raise CompetitionRuleError("EKML §32(2)", "no pairing without a repeat is possible")
    rng = random.Random(seed)
    return SwissRound(tuple(_opening(a, b, rng) for a, b in pairs), bye.id if bye else None)


def _choose_bye(order: list[SwissEntry]) -> tuple[SwissEntry | None, list[SwissEntry]]:
    """The lowest-placed entrant without a bye whose absence leaves a valid pairing."""
    if len(order) % 2 == 0:
        return None, order
    for entry in reversed(order):
        rest = [e for e in order if e is not entry]
        if not entry.had_bye and _pair(tuple(rest), set()) is not None:
            return entry, rest
    raise CompetitionRuleError("EKML §32(2) note 3", "every entrant has had the bye already")


def _pair(order: tuple[SwissEntry, ...], failed: set[frozenset[str]]) -> list | None:
    """Depth-first pairing of the top entrant with the best candidate, with backtracking."""
    if not order:
        return []
    key = frozenset(e.id for e in order)
    if key in failed:
        return None
    top, rest = order[0], order[1:]
    for cand in _candidates(top, rest):
        if cand.id in top.opponents:
            continue
        sub = _pair(tuple(e for e in rest if e is not cand), failed)
        if sub is not None:
            return [(top, cand), *sub]
    failed.add(key)
    return None


def _candidates(top: SwissEntry, rest: tuple[SwissEntry, ...]) -> list[SwissEntry]:
    """Top half meets bottom half of the score group first, then lower groups in order."""
    group = [e for e in rest if e.score == top.score]
    lower = [e for e in rest if e.score != top.score]
    mid = len(group) // 2
    return group[mid:] + group[:mid][::-1] + lower


def _opening(a: SwissEntry, b: SwissEntry, rng: random.Random) -> tuple[str, str]:
    """The one who opened less often is listed first and opens, else the one who did not
    open last time; a full tie goes by lot (EKML §31(1)2)."""
    if a.openings != b.openings:
        return (a.id, b.id) if a.openings < b.openings else (b.id, a.id)
    if a.opened_last != b.opened_last:
        return (b.id, a.id) if a.opened_last else (a.id, b.id)
    return (a.id, b.id) if rng.random() < 0.5 else (b.id, a.id)


def drawn_order(ids: list[str], seed: int) -> tuple[str, ...]:
    """Starting numbers by lot from a recorded seed (EKML §12(2)2: the head judge's draw)."""
    shuffled = sorted(ids)
    random.Random(seed).shuffle(shuffled)
    return tuple(shuffled)
