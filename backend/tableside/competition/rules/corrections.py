"""Whether play has gone on past a match, so that a wrong recorded result can no longer be
corrected without moving what was played since: a discipline cites its own paragraph for the
bound ("before the next round starts" is this question). Pure, and names no discipline."""

from .brackets import Bracket, BracketMatch
from .matches import pairings
from .state import Competition, round_of


def next_round_started(state: Competition, match_id: str) -> bool:
    """In paired rounds: a later round has been paired. In a bracket: a match of a later
    round of the same stage, or one the match feeds (its winner or loser), has been called to a
    table or has a result. A match the competition does not know: False (nothing to move)."""
    if match_id in pairings(state):
        return state.current_round > round_of(match_id)
    under_way = state.calls.keys() | state.results.keys()
    for bracket in (state.bracket, state.playoff):
        mine = _match(bracket, match_id)
        if mine is not None:
            later = (m for m in bracket.matches if m.id != match_id and _after(m, mine))
            return any(m.id in under_way for m in later)
    return False


def _match(bracket: Bracket | None, match_id: str) -> BracketMatch | None:
    if bracket is None:
        return None
    return next((m for m in bracket.matches if m.id == match_id), None)


def _after(match: BracketMatch, mine: BracketMatch) -> bool:
    """`match` comes after `mine`: a later round of its stage, or fed by it."""
    fed = any(kind != "seed" and source == mine.id for kind, source in (match.a, match.b))
    return fed or (match.stage == mine.stage and match.round > mine.round)
