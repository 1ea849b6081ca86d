"""A withdrawn entrant's later bracket matches are lost by forfeit as they come up
(EKML §32(3): unplayed matches are a minus for the one who withdrew)."""

from . import events as ev
from .evolve import evolve
from .matches import all_slots, games_for
from .results import forfeit_result
from .state import Competition


def walkovers(state: Competition, at: str) -> list[ev.ResultRecorded]:
    """Forfeits for every ready bracket match with a withdrawn entrant, until none is left."""
    out: list[ev.ResultRecorded] = []
    while (event := _next(state, at)) is not None:
        out.append(event)
        state = evolve(state, event)
    return out


def _next(state: Competition, at: str) -> ev.ResultRecorded | None:
    """The first ready bracket match that a withdrawn entrant cannot play."""
    gone = {e for e, x in state.entrants.items() if x.status == "withdrawn"}
    if not gone or not (state.bracket or state.playoff):
        return None
    for slot in all_slots(state).values():
        ready = slot.winner is None and None not in (slot.a, slot.b)
        if ready and slot.id not in state.results and gone & {slot.a, slot.b}:
            winner = "b" if slot.a in gone else "a"
            result = forfeit_result(winner, games_for(state, slot.id), withdrawal=True)
            rule = state.withdrawals.get(slot.a if slot.a in gone else slot.b)
            return ev.ResultRecorded(
                slot.id, slot.a, slot.b, result, at, "EKML §32(3)" if rule else "EKML §9(4)"
            )
    return None
