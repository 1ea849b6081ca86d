"""Each entrant's record, game by game of the event: the raw stuff standings are made of."""

from typing import Literal

import msgspec

from . import sports
from .results import MatchResult, outcome, side_points
from .rulesets import policy
from .state import Competition, round_of

Kind = Literal["played", "bye", "forfeit"]
Score = Literal["W", "D", "L"]


class Game(msgspec.Struct, frozen=True):
    """One round of one entrant: opponent (None for a bye), points each, games, pucks."""

    round: int
    opponent: str | None
    points: float
    opponent_points: float
    won: int
    lost: int
    drawn: int
    pucks: int
    kind: Kind
    result: Score = "D"


def annulled(state: Competition) -> set[str]:
    """Entrants whose results are annulled (EKML §32(3), NOVUS08 3.2, EKML §9(4))."""
    return {e for e, w in state.withdrawals.items() if not w.results_stand}


def records(state: Competition) -> dict[str, list[Game]]:
    """Every counted entrant's games of the paired rounds, byes included, in round order."""
    gone = annulled(state)
    out: dict[str, list[Game]] = {e: [] for e in state.entrants if e not in gone}
    round_ids = {p.match_id for r in state.rounds.values() for p in r.pairings}
    for match_id, rec in state.results.items():
        if match_id in round_ids and gone.isdisjoint((rec.a, rec.b)):
            add_result(state, out, round_of(match_id), rec.a, rec.b, rec.result)
    for number, paired in state.rounds.items():
        if paired.bye is not None and paired.bye in out:
            out[paired.bye].append(bye_game(state, number))
    return {e: sorted(games, key=lambda g: g.round) for e, games in out.items()}


def add_result(state, out, rnd: int, a: str, b: str, result: MatchResult) -> None:
    """Add both sides' view of one result."""
    scale = state.guide.points
    pa, pb = side_points(scale, result, "a"), side_points(scale, result, "b")
    if result.withdrawal and not policy(state.guide.ruleset).withdrawal_forfeit_points:
        pa, pb = min(pa, scale.loss), min(pb, scale.loss)
    kind: Kind = "forfeit" if result.forfeit else "played"
    counted = not result.forfeit
    games = _games(result) if counted else (0, 0, 0)
    pucks = result.a_pucks_diff if counted else 0
    ra, rb = _scores(result)
    out[a].append(Game(rnd, b, pa, pb, games[0], games[1], games[2], pucks, kind, ra))
    out[b].append(Game(rnd, a, pb, pa, games[1], games[0], games[2], -pucks, kind, rb))


def _games(result: MatchResult) -> tuple[int, int, int]:
    """Games won, lost and drawn; a match played to points (its result has a `score`) counts
    its points instead, so the games columns and tie-breaks read points won and lost."""
    if result.score is not None:
        return result.score[0], result.score[1], 0
    return result.a_games, result.b_games, result.drawn_games


def _scores(result: MatchResult) -> tuple[Score, Score]:
    """Won, drawn or lost for each side by the result itself — a forfeit too: a plus for the
    one who was there and a minus for the one who was not (EKML §32(3)1, NOVUS08 3.2), even
    where it scores no points."""
    won = outcome(result)
    if won == "draw":
        return "D", "D"
    return ("W", "L") if won == "a" else ("L", "W")


def bye_game(state: Competition, rnd: int) -> Game:
    """A Swiss bye scores a drawn match's points (EKML §32(2) note 3, §29(5)) — on a
    one-point-per-game scale half the games, not the 2/1/0 draw; a round-robin bye is just
    a free round. A sport may score it otherwise (`sports.Sport.bye_points`: a sport with no
    draw gives a win's match point)."""
    guide = state.the_guide
    swiss = guide.format in ("swiss", "swiss_playoff")
    points = sports.of(guide).bye_points(guide) if swiss else 0.0
    return Game(rnd, None, points, 0.0, 0, 0, 0, 0, "bye")


def totals(recs: dict[str, list[Game]]) -> dict[str, float]:
    """Total match points by entrant."""
    return {e: sum(g.points for g in games) for e, games in recs.items()}
