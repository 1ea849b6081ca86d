"""Where a competition's matches stand: paired rounds and brackets seen the same way."""

from .bracket_view import BYE, Slot, resolve
from .brackets import Bracket
from .errors import CompetitionRuleError
from .events import Pairing
from .results import outcome
from .state import Competition


def pairings(state: Competition) -> dict[str, Pairing]:
    """Every round-robin or Swiss pairing by match id."""
    return {p.match_id: p for rnd in state.rounds.values() for p in rnd.pairings}


def bracket_winners(state: Competition) -> dict[str, tuple[str, str, str]]:
    """Recorded winners as a bracket reads them: match id → (a, b, winner)."""
    winners = {}
    for match_id, rec in state.results.items():
        won = outcome(rec.result)
        if won != "draw":
            winners[match_id] = (rec.a, rec.b, rec.a if won == "a" else rec.b)
    return winners


def slots(state: Competition, bracket: Bracket | None) -> dict[str, Slot]:
    """A bracket filled from the results so far (empty without a bracket)."""
    return resolve(bracket, bracket_winners(state)) if bracket else {}


def all_slots(state: Competition) -> dict[str, Slot]:
    """The main bracket's and the play-off's matches together."""
    return {**slots(state, state.bracket), **slots(state, state.playoff)}


def sides(state: Competition, match_id: str) -> tuple[str, str]:
    """The two entrants of a match that can be played now, or a rule error."""
    paired = pairings(state).get(match_id)
    if paired is not None:
        return paired.a, paired.b
    slot = all_slots(state).get(match_id)
    if slot is None:
        raise CompetitionRuleError(
            "EKML §12(2)4",
            f"no match {match_id} in the draw",
            code="no_match_in_draw",
            params={"match": match_id},
        )
    if slot.a in (None, BYE) or slot.b in (None, BYE):
        raise CompetitionRuleError(
            "EKML §12(2)4",
            f"{match_id} has no two entrants yet",
            code="match_lacks_entrants",
            params={"match": match_id},
        )
    return slot.a, slot.b


def open_matches(state: Competition) -> list[tuple[str, tuple[str, str]]]:
    """Matches ready to be called: both sides known, no result, not on a table yet."""
    ready = [(p.match_id, (p.a, p.b)) for p in pairings(state).values()]
    ready += [(s.id, (s.a, s.b)) for s in all_slots(state).values() if _ready(s)]
    done = state.results.keys() | state.calls.keys()
    return [m for m in ready if m[0] not in done]


def busy_entrants(state: Competition) -> set[str]:
    """Entrants already at a table (called, no result yet)."""
    return {p for m, pair in state.called_sides.items() if m not in state.results for p in pair}


def callable_matches(state: Competition) -> list[tuple[str, tuple[str, str]]]:
    """Waiting matches in calling order, none with an entrant already at a table (§17(3))."""
    return [(m, sides) for m, sides, ready in queue(state) if ready]


def queue(state: Competition) -> list[tuple[str, tuple[str, str], bool]]:
    """Every waiting match in calling order, and whether it can be called now: not while one
    of its entrants is at a table or comes first in a match ahead of it (EKML §17(3))."""
    busy, out = busy_entrants(state), []
    for match_id, sides in open_matches(state):
        ready = busy.isdisjoint(sides)
        busy |= set(sides) if ready else set()
        out.append((match_id, sides, ready))
    return out


def _ready(slot: Slot) -> bool:
    """A bracket match with two real entrants and no winner yet."""
    return slot.winner is None and None not in (slot.a, slot.b) and BYE not in (slot.a, slot.b)


def games_for(state: Competition, match_id: str) -> int:
    """Games in a match: the guide's count, best of five in the play-off (guide setting)."""
    if _in_playoff(state, match_id):
        return state.guide.playoff_games
    return state.guide.games_per_match


def play_all_for(state: Competition, match_id: str) -> bool:
    """Whether every game of this match is played: the Swiss stage and its play-off each
    have their own setting (NOVUS08 23.1: the guide may require all games)."""
    if _in_playoff(state, match_id):
        return state.guide.playoff_play_all_games
    return state.guide.play_all_games


def _in_playoff(state: Competition, match_id: str) -> bool:
    """Whether a match belongs to the play-off after a Swiss."""
    return state.playoff is not None and any(m.id == match_id for m in state.playoff.matches)
