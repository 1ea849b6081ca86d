"""The standings projection: a pure fold over the competition's events, ranked on demand."""

import msgspec

from .bracket_standings import bracket_games, bracket_places
from .bracket_view import Slot
from .evolve import evolve
from .matches import all_slots, slots
from .records import Game, records, totals
from .state import Competition
from .tiebreaks import SCORERS, head_to_head, opponent_totals


class Row(msgspec.Struct, frozen=True):
    """One line of the standings table."""

    place: int
    entrant: str
    name: str
    points: float
    played: int
    won: int
    drawn: int
    lost: int
    games_won: int
    games_lost: int
    pucks_diff: int
    tie_breaks: tuple[float, ...]
    shared: bool = False
    plus: int = 0
    minus: int = 0
    place_to: int = 0  # the last place of a shared range (a bracket's 5–6), else the place
    withdrawn: bool = False  # withdrew from the event (EKML §32(3)): marked on every face


class StandingsView(msgspec.Struct, frozen=True):
    """The projection's state: the competition as far as the events so far tell."""

    competition: Competition = Competition()


def fold(view: StandingsView, event: object) -> StandingsView:
    """fold(view, event) -> view: one event more."""
    return StandingsView(evolve(view.competition, event))


def standings(view: StandingsView) -> tuple[Row, ...]:
    """Rank by points, then the guide's tie-breaks in order; the drawn order last."""
    state = view.competition
    if state.guide is None:
        return ()
    if state.bracket is not None:
        return _bracket_rows(state)
    recs = records(state)
    keys = _keys(state, recs)
    ranked = sorted(recs, key=lambda e: (keys[e], _start(state, e)))
    return tuple(_ranked_row(state, e, recs[e], ranked, keys) for e in ranked)


def _bracket_rows(state: Competition) -> tuple[Row, ...]:
    """An elimination bracket ranks by its places (KUUSALU, NOVUS08 22.1.2), not by points:
    those out in the same round share a range; points and matches as played (EKML §32(2))."""
    filled = slots(state, state.bracket)
    games = bracket_games(state, filled)
    return tuple(
        _row(state, e, games[e], (first, last), ())
        for e, first, last in bracket_places(state, filled)
    )


def bracket(view: StandingsView) -> tuple[Slot, ...]:
    """The bracket view: every bracket and play-off match as it stands now; a match won
    without play (no-show, withdrawal: EKML §9(3), §9(4)) is marked a walkover."""
    state = view.competition
    return tuple(
        msgspec.structs.replace(s, walkover=True) if _walkover(state, s.id) else s
        for s in all_slots(state).values()
    )


def _walkover(state: Competition, match_id: str) -> bool:
    """Whether a match's recorded result is a forfeit."""
    rec = state.results.get(match_id)
    return rec is not None and rec.result.forfeit


def _keys(state: Competition, recs: dict[str, list[Game]]) -> dict[str, tuple]:
    """Sort keys: negated points then tie-breaks; head to head is taken inside tied groups
    (by default only where every tied player has met every other: guide `head_to_head`)."""
    guide = state.guide
    tot = totals(recs)
    opp = opponent_totals(recs, guide)
    keys = {e: (-tot[e],) for e in recs}
    for name in guide.tie_breaks:
        if name == "head_to_head":
            groups = _groups(keys)
            keys = {
                e: (*k, -head_to_head(e, recs, groups[k] - {e}, guide)) for e, k in keys.items()
            }
        else:
            score = SCORERS[name]
            keys = {e: (*k, -score(e, recs[e], opp, guide)) for e, k in keys.items()}
    return keys


def _groups(keys: dict[str, tuple]) -> dict[tuple, set[str]]:
    """Entrants sharing the same key so far."""
    groups: dict[tuple, set[str]] = {}
    for e, k in keys.items():
        groups.setdefault(k, set()).add(e)
    return groups


def _start(state: Competition, entrant: str) -> int:
    """Starting number from the draw (late entrants after, by id)."""
    return state.order.index(entrant) if entrant in state.order else len(state.order)


def _ranked_row(state, entrant: str, games: list[Game], ranked: list[str], keys) -> Row:
    """One row of a table ranked by points and tie-breaks."""
    place = next(i for i, e in enumerate(ranked) if keys[e] == keys[entrant]) + 1
    size = sum(1 for e in ranked if keys[e] == keys[entrant])
    breaks = tuple(-x for x in keys[entrant][1:])
    return _row(state, entrant, games, (place, place + size - 1), breaks)


def _row(state, entrant: str, games: list[Game], places: tuple[int, int], breaks) -> Row:
    """Build one standings row: its place (first and last of a shared range). Played, won,
    drawn and lost count the matches played over the board; a forfeit is not played, it is
    a plus for the one who was there and a minus for the other (EKML §32(3)1)."""
    played = [g for g in games if g.kind == "played"]
    forfeits = [g for g in games if g.kind == "forfeit"]
    return Row(
        place=places[0],
        place_to=places[1],
        entrant=entrant,
        name=state.entrants[entrant].name,
        points=sum(g.points for g in games),
        played=len(played),
        won=sum(1 for g in played if g.result == "W"),
        drawn=sum(1 for g in played if g.result == "D"),
        lost=sum(1 for g in played if g.result == "L"),
        games_won=sum(g.won for g in games),
        games_lost=sum(g.lost for g in games),
        pucks_diff=sum(g.pucks for g in games),
        tie_breaks=breaks,
        shared=places[1] > places[0],
        plus=sum(1 for g in forfeits if g.result == "W"),
        minus=sum(1 for g in forfeits if g.result == "L"),
        withdrawn=state.entrants[entrant].status == "withdrawn",
    )
