"""Who plays whom in a bracket given the results so far, and the placings it yields."""

import msgspec

from .brackets import Bracket, BracketMatch, Source

BYE = "—"


class Slot(msgspec.Struct, frozen=True):
    """A bracket match as it stands: participants (None = not known yet, BYE = nobody)."""

    id: str
    stage: str
    round: int
    a: str | None
    b: str | None
    winner: str | None = None
    loser: str | None = None
    walkover: bool = False
    not_needed: bool = False  # a grand final's replay the winners' champion made needless


def resolve(bracket: Bracket, winners: dict[str, tuple[str, str, str]]) -> dict[str, Slot]:
    """Fill the bracket from recorded winners, keyed by match id as (a, b, winner); a result
    counts only while its recorded participants still stand there (corrections flow on)."""
    slots: dict[str, Slot] = {}
    for match in bracket.matches:
        a, b = _source(bracket, slots, match.a), _source(bracket, slots, match.b)
        needless = match.reset_of is not None and _no_reset(slots[match.reset_of])
        slot = _settle(match, a, BYE if needless else b, winners.get(match.id))
        slots[match.id] = msgspec.structs.replace(slot, not_needed=True) if needless else slot
    return slots


def _no_reset(final: Slot) -> bool:
    """The grand final is not replayed when the winners' champion (side a) won it."""
    return final.winner is not None and final.winner == final.a


def _source(bracket: Bracket, slots: dict[str, Slot], source: Source) -> str | None:
    """The entrant a source names, BYE, or None while unknown."""
    kind, ref = source
    if kind == "seed":
        entrant = bracket.seeds[int(ref) - 1] if int(ref) <= len(bracket.seeds) else None
        return entrant if entrant is not None else BYE
    slot = slots[ref]
    return slot.winner if kind == "winner" else slot.loser


def _settle(match: BracketMatch, a, b, recorded) -> Slot:
    """A bye walks the other side through; otherwise the recorded winner, if it still fits."""
    slot = Slot(match.id, match.stage, match.round, a, b)
    if a is None or b is None:
        return slot
    if BYE in (a, b):
        through = b if a == BYE else a
        return msgspec.structs.replace(slot, winner=through, loser=BYE)
    if recorded is not None and recorded[:2] == (a, b) and recorded[2] in (a, b):
        loser = b if recorded[2] == a else a
        return msgspec.structs.replace(slot, winner=recorded[2], loser=loser)
    return slot


def playable(slots: dict[str, Slot]) -> list[Slot]:
    """Matches whose two real participants are known and that have no result yet."""
    return [s for s in slots.values() if s.winner is None and _real(s.a) and _real(s.b)]


def _real(entrant: str | None) -> bool:
    """Whether a participant is a known entrant."""
    return entrant is not None and entrant != BYE


def champion(bracket: Bracket, slots: dict[str, Slot]) -> str | None:
    """The bracket's winner once its last deciding match is settled."""
    last = "GF2" if bracket.kind == "double" else _final_id(bracket)
    return slots[last].winner


def _final_id(bracket: Bracket) -> str:
    """The main final of a single-elimination or play-off bracket."""
    stage = "P" if bracket.kind == "playoff" else "W"
    return max((m for m in bracket.matches if m.stage == stage), key=lambda m: m.round).id


def placings(bracket: Bracket, slots: dict[str, Slot]) -> tuple[tuple[str, ...], ...]:
    """Final placings as groups sharing a place: champion, then by how late one went out."""
    top = champion(bracket, slots)
    if top is None:
        return ()
    groups: list[tuple[str, ...]] = [(top,)]
    for out in _elimination_groups(bracket, slots):
        fresh = tuple(e for e in out if e not in {x for g in groups for x in g})
        if fresh:
            groups.append(fresh)
    return tuple(groups)


def standing_groups(bracket: Bracket, slots: dict[str, Slot]) -> tuple[tuple[str, ...], ...]:
    """Places as far as the bracket tells: the final placings once it is settled; before,
    those still in share the top place and those out follow by how late they went out."""
    final = placings(bracket, slots)
    if final:
        return final
    stages = ("L", "GF") if bracket.kind == "double" else ("W", "3P", "C", "LC", "P")
    seen: set[str] = set()
    out = []
    for group in _by_round(slots, stages):
        out.append(tuple(e for e in group if e not in seen))
        seen |= set(group)
    alive = tuple(sorted({e for e in bracket.seeds if e is not None} - seen))
    return tuple(g for g in (alive, *out) if g)


def _elimination_groups(bracket: Bracket, slots: dict[str, Slot]) -> list[tuple[str, ...]]:
    """Losers grouped by the match round that ended their run, latest first; the losers of a
    single elimination's first round are ordered by their consolation knockout."""
    heads: list[tuple[str, ...]] = []
    if bracket.kind != "double":
        final = slots[_final_id(bracket)]
        third = slots.get("3P")
        heads = [(final.loser,)] if _real(final.loser) else []
        if third is not None:
            heads += [(x,) for x in (third.winner, third.loser) if _real(x)]
    main = "W" if bracket.kind == "single" else "P"
    stages = ("L", "GF") if bracket.kind == "double" else (main,)
    groups = heads + _by_round(slots, stages)
    if any(s.stage == "C" for s in slots.values()):
        groups = [*groups[:-1], *_flight_groups(slots, "C", inner="LC"), groups[-1]]
    return groups


def _by_round(slots: dict[str, Slot], stages: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Losers of the given stages grouped by round, latest first (a grand final's first game
    lost by the winners' champion ends nobody's run)."""
    out = [s for s in slots.values() if s.stage in stages and _real(s.loser)]
    out.sort(key=lambda s: (s.stage == "GF", s.round), reverse=True)
    groups: dict[tuple[str, int], list[str]] = {}
    for s in out:
        if not (s.id == "GF1" and s.loser == s.a):
            groups.setdefault((s.stage, s.round), []).append(s.loser)
    return [tuple(sorted(g)) for g in groups.values()]


def _flight_groups(slots: dict[str, Slot], stage: str, inner: str = "") -> list[tuple[str, ...]]:
    """A flight's players as its own knockout placed them (the consolation of the first
    round's losers, the last chance of the consolation's): its winner, its final's loser, then
    by the round that ended their run (those still in it stay in its first round's shared
    place that follows). An inner flight orders that first round the same way."""
    final = max((s for s in slots.values() if s.stage == stage), key=lambda s: s.round)
    top = [(x,) for x in (final.winner, final.loser) if _real(x)]
    rest = [g for g in _by_round(slots, (stage,)) if final.loser not in g]
    if inner and rest and any(s.stage == inner for s in slots.values()):
        rest = [*rest[:-1], *_flight_groups(slots, inner), rest[-1]]
    return top + rest
