"""A match result as the competition sees it, its points, and the time-cap ruling. Below the
sport (`sports.py` names `MatchResult`): a result's check against its sport is in
`result_check.py`."""

from typing import Literal

import msgspec

from .errors import require
from .guide import Guide, PointsScale

Outcome = Literal["a", "b", "draw"]


class MatchResult(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """Games won each (drawn games apart), pucks difference for side a, and how it ended; a
    match played to a number of points is one "game" won (1:0) with its points in `score`."""

    a_games: int
    b_games: int
    drawn_games: int = 0
    a_pucks_diff: int = 0
    forfeit: bool = False
    withdrawal: bool = False
    score: tuple[int, int] | None = None


def outcome(result: MatchResult) -> Outcome:
    """Who won the match: more games won (EKML §32(1), NOVUS08 23.1); equal is a draw."""
    if result.a_games > result.b_games:
        return "a"
    if result.b_games > result.a_games:
        return "b"
    return "draw"


def side_points(scale: PointsScale, result: MatchResult, side: Outcome) -> float:
    """Match points for one side (EKML §32(2)); per-game scales count a drawn game as half."""
    if scale.per_game:
        won = result.a_games if side == "a" else result.b_games
        return won + result.drawn_games / 2
    won = outcome(result)
    if won == "draw":
        return scale.draw
    return scale.win if won == side else scale.loss


def forfeit_result(winner: Outcome, games: int, withdrawal: bool = False) -> MatchResult:
    """A forfeit (no-show §9(3), withdrawal §32(3)): the winner takes the deciding games."""
    need = games // 2 + 1
    if winner == "a":
        return MatchResult(need, 0, forfeit=True, withdrawal=withdrawal)
    return MatchResult(0, need, forfeit=True, withdrawal=withdrawal)


def time_cap_ruling(
    guide: Guide, a_games: int, b_games: int, a_pucks_left: int, b_pucks_left: int
) -> MatchResult:
    """The head judge's ruling at the time cap: finished games stand, the open game goes to
    the side with fewer pucks left (equal → drawn), every unplayed game is drawn."""
    total = guide.games_per_match
    require(
        a_games + b_games < total, "guide time cap", "no game was left open", "no_game_left_open"
    )
    drawn = total - a_games - b_games - 1
    diff = b_pucks_left - a_pucks_left
    if a_pucks_left < b_pucks_left:
        a_games += 1
    elif b_pucks_left < a_pucks_left:
        b_games += 1
    else:
        drawn += 1
    return MatchResult(a_games, b_games, drawn_games=drawn, a_pucks_diff=diff)
