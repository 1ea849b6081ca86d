"""A result held to its match: the sport's own shape of a result, else the games of a match
(EKML §32(1), NOVUS08 23.1). Above `sports` and `results` both, so that neither imports the
other at run time and the sport may name a result and the competition's state (no circle
among the rules' modules, `.importlinter-annotations`)."""

from . import sports
from .errors import require
from .guide import Guide
from .results import MatchResult


def check_length(
    guide: Guide, result: MatchResult, games: int | None = None, play_all: bool | None = None
) -> None:
    """A result may not hold more games than its match has (EKML §32(1), NOVUS08 23.1); a
    match stopped once decided holds no game past that; where the guide has every game
    played (per stage: `play_all`), an incomplete result is refused."""
    own = sports.of(guide).check_result
    if own is not None:  # the sport's own result shape (a match to points: one "game")
        own(result)
        return
    total = games or guide.games_per_match
    every = guide.play_all_games if play_all is None else play_all
    if result.forfeit:
        return
    played = result.a_games + result.b_games + result.drawn_games
    require(
        played <= total,
        "EKML §32(1)",
        f"{played} games of {total}",
        "games_of_total",
        played=played,
        total=total,
    )
    if every:
        require(
            played == total,
            "NOVUS08 23.1",
            f"the guide has all {total} games played; the result holds {played}",
            "all_games_played",
            played=played,
            total=total,
        )
        return
    most = max(result.a_games, result.b_games)
    need = total // 2 + 1
    require(
        most <= need,
        "EKML §32(1)",
        f"the match stops once decided: {most} won games where {need} decide a best of {total}",
        "match_stops_when_decided",
        most=most,
        need=need,
        total=total,
    )
