"""The standings of an elimination bracket: its places as the bracket gives them (KUUSALU,
EKML §12(2)6) — those out in the same round share a range of places (5–6, 7–8, 9–12) — and
each entrant's matches and points as played (EKML §32(2))."""

from .bracket_view import BYE, Slot, standing_groups
from .records import Game, add_result
from .state import Competition

Groups = tuple[tuple[str, ...], ...]


def without_withdrawn(groups: Groups, state: Competition) -> Groups:
    """A bracket's places less those who withdrew from it: removed, not placed (§9(4))."""
    gone = {e for e, x in state.entrants.items() if x.status == "withdrawn"}
    return tuple(g for g in (tuple(e for e in grp if e not in gone) for grp in groups) if g)


def bracket_games(state: Competition, filled: dict[str, Slot]) -> dict[str, list[Game]]:
    """Every entrant's matches of the bracket as recorded: a bye is no match, a replay not
    needed is none either; a walkover counts as a forfeit (EKML §32(3)1)."""
    out: dict[str, list[Game]] = {e: [] for e in state.entrants}
    for slot in filled.values():
        rec = state.results.get(slot.id)
        if rec is None or BYE in (slot.a, slot.b) or (rec.a, rec.b) != (slot.a, slot.b):
            continue
        add_result(state, out, slot.round, rec.a, rec.b, rec.result)
    return out


def bracket_places(state: Competition, filled: dict[str, Slot]) -> tuple[tuple[str, int, int], ...]:
    """(entrant, first place, last place) of each entrant the bracket places, best first."""
    groups = without_withdrawn(standing_groups(state.bracket, filled), state)
    out, place = [], 1
    for group in groups:
        out += [(e, place, place + len(group) - 1) for e in sorted(group, key=state.order.index)]
        place += len(group)
    return tuple(out)
