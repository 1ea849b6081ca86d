"""Final placings: a bracket's own order, a play-off over the Swiss, or the standings."""

from .bracket_standings import without_withdrawn as _without
from .bracket_view import placings as bracket_placings
from .matches import slots
from .records import annulled
from .standings import StandingsView, standings
from .state import Competition

Placings = tuple[tuple[str, ...], ...]


def final_placings(state: Competition) -> Placings:
    """Groups of entrants sharing a place, best first; annulled entrants are not placed
    (EKML §32(3)), nor is one who withdrew from an elimination bracket (EKML §9(4))."""
    if state.bracket is not None:
        return _without(bracket_placings(state.bracket, slots(state, state.bracket)), state)
    table = _by_standings(state)
    if state.playoff is None:
        return table
    full = bracket_placings(state.playoff, slots(state, state.playoff))
    top = _without(full, state)
    placed = {e for group in full for e in group}
    rest = tuple(g for g in (tuple(e for e in grp if e not in placed) for grp in table) if g)
    return top + rest if top else ()


def _by_standings(state: Competition) -> Placings:
    """Standings rows grouped by shared place."""
    gone = annulled(state)
    groups: dict[int, list[str]] = {}
    for row in standings(StandingsView(state)):
        if row.entrant not in gone:
            groups.setdefault(row.place, []).append(row.entrant)
    return tuple(tuple(g) for _, g in sorted(groups.items()))
