"""Elimination brackets as data: double elimination on 16/32 places (KUUSALU), single
elimination with a third-place match and a consolation round, and the play-off."""

from typing import Literal

import msgspec

from .errors import require

Kind = Literal["double", "single", "playoff"]
Source = tuple[str, str]  # ("seed", "3") | ("winner", match id) | ("loser", match id)


class BracketMatch(msgspec.Struct, frozen=True):
    """One match of a bracket, fed by its two sources; `reset_of` marks the grand final
    replay, played only if the losers' side won the first final."""

    id: str
    stage: str
    round: int
    a: Source
    b: Source
    reset_of: str | None = None


class Bracket(msgspec.Struct, frozen=True):
    """A drawn bracket: its matches and the entrant on each seed (None = a bye)."""

    kind: Kind
    size: int
    seeds: tuple[str | None, ...]
    matches: tuple[BracketMatch, ...]


MAX_BRACKET = 256


def bracket_size(entrants: int, least: int = 16) -> int:
    """KUUSALU guide: a 16-place bracket up to 16 entrants, a 32-place one above; beyond 32
    the same rule continues to the next power of two (64, 128, 256), byes filling it. A guide
    whose bracket is sized to its entrants gives `least` 2: the next power of two, so no round
    is all byes."""
    require(
        2 <= entrants <= MAX_BRACKET,
        "KUUSALU",
        f"{entrants} entrants do not fit a bracket (2 to {MAX_BRACKET})",
        "bracket_size",
        entrants=entrants,
        most=MAX_BRACKET,
    )
    size = least
    while size < entrants:
        size *= 2
    return size


def seeding_order(size: int) -> tuple[int, ...]:
    """Standard seeding: 1 v size, and the byes (highest seeds) spread one to a match."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [x for seed in order for x in (seed, total - seed)]
    return tuple(order)


def _knockout(stage: str, firsts: list[Source], start: int = 1) -> list[BracketMatch]:
    """A single-elimination tree over the given first-round sources."""
    matches, feed, rnd = [], firsts, start
    while len(feed) > 1:
        rows = _pairs_round(stage, rnd, feed)
        matches += rows
        feed = [("winner", m.id) for m in rows]
        rnd += 1
    return matches


def _seed_sources(size: int) -> list[Source]:
    """First-round sources in seeding order."""
    return [("seed", str(s)) for s in seeding_order(size)]


def _losers_bracket(winners: list[BracketMatch], rounds: int) -> list[BracketMatch]:
    """The losers' round (kaotusring): losers of each winners' round drop in, reversed on
    alternate rounds so that early rematches are rare."""
    by_round = {r: [m for m in winners if m.round == r] for r in range(1, rounds + 1)}
    first = [("loser", m.id) for m in by_round[1]]
    matches = _pairs_round("L", 1, first)
    for k in range(2, rounds + 1):
        drop = [("loser", m.id) for m in by_round[k]]
        if k % 2 == 0:
            drop.reverse()
        prev = [("winner", m.id) for m in matches if m.round == 2 * k - 3]
        matches += [
            BracketMatch(f"L{2 * k - 2}-{i + 1}", "L", 2 * k - 2, prev[i], drop[i])
            for i in range(len(prev))
        ]
        if k < rounds:
            feed = [("winner", m.id) for m in matches if m.round == 2 * k - 2]
            matches += _pairs_round("L", 2 * k - 1, feed)
    return matches


def _pairs_round(stage: str, rnd: int, feed: list[Source]) -> list[BracketMatch]:
    """One round pairing neighbouring sources."""
    return [
        BracketMatch(f"{stage}{rnd}-{i + 1}", stage, rnd, feed[2 * i], feed[2 * i + 1])
        for i in range(len(feed) // 2)
    ]


def double_elimination(seeds: tuple[str | None, ...]) -> Bracket:
    """Out after two losses (KUUSALU); the grand final is replayed if its first game makes
    the winners' champion lose for the first time."""
    size = len(seeds)
    winners = _knockout("W", _seed_sources(size))
    rounds = size.bit_length() - 1
    losers = _losers_bracket(winners, rounds)
    final = BracketMatch("GF1", "GF", 1, ("winner", winners[-1].id), ("winner", losers[-1].id))
    reset = BracketMatch("GF2", "GF", 2, ("winner", "GF1"), ("loser", "GF1"), reset_of="GF1")
    return Bracket("double", size, seeds, (*winners, *losers, final, reset))


def single_elimination(
    seeds: tuple[str | None, ...], consolation: bool = True, last_chance: bool = False
) -> Bracket:
    """One loss out, a third-place match, a consolation knockout of first-round losers and,
    from 16 up when the guide asks, a last-chance knockout of the consolation's first-round
    losers (flights: everyone plays at least three matches)."""
    size = len(seeds)
    winners = _knockout("W", _seed_sources(size))
    extra = _third_place(winners)
    if consolation and size >= 8:
        consoled = _knockout("C", _first_round_losers(winners))
        extra += consoled
        if last_chance and size >= 16:
            extra += _knockout("LC", _first_round_losers(consoled))
    return Bracket("single", size, seeds, (*winners, *extra))


def _first_round_losers(knockout: list[BracketMatch]) -> list[Source]:
    return [("loser", m.id) for m in knockout if m.round == 1]


def _third_place(winners: list[BracketMatch]) -> list[BracketMatch]:
    """The two semi-final losers play for third place."""
    last = max(m.round for m in winners)
    semis = [m for m in winners if m.round == last - 1]
    if len(semis) != 2:
        return []
    return [BracketMatch("3P", "3P", last, ("loser", semis[0].id), ("loser", semis[1].id))]


def playoff(ranked: tuple[str, ...]) -> Bracket:
    """Top 4 (1v4, 2v3, then the final) or top 8 of a Swiss preliminary, with a third place."""
    require(
        len(ranked) in (4, 8),
        "guide play-off",
        "a play-off takes the top 4 or 8",
        "playoff_top_four_or_eight",
    )
    winners = _knockout("P", _seed_sources(len(ranked)))
    return Bracket("playoff", len(ranked), ranked, (*winners, *_third_place(winners)))
