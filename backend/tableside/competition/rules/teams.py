"""Team matches (EKML §29): boards in order, board points summed into the team result."""

import random

import msgspec

from .errors import require
from .guide import Guide
from .results import MatchResult, side_points


class Team(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """A team: members by board order (I, II, III…, EKML §29(2)) and substitutes (§29(6))."""

    boards: tuple[str, ...]
    substitutes: tuple[str, ...] = ()


def check_team(guide: Guide, team: Team) -> None:
    """A team fills every board and keeps within the guide's substitutes (EKML §29(1), (6))."""
    settings = guide.teams
    require(settings is not None, "EKML §6(5)", "the guide sets no team play", "no_team_play")
    require(
        len(team.boards) == settings.boards,
        "EKML §29(1)",
        "every board needs a player",
        "board_needs_player",
    )
    require(
        len(team.substitutes) <= settings.substitutes,
        "EKML §29(6)",
        "too many substitutes",
        "too_many_substitutes",
    )
    members = team.boards + team.substitutes
    require(
        len(set(members)) == len(members), "EKML §29(1)", "a player is listed twice", "listed_twice"
    )


def board_totals(guide: Guide, boards: dict[int, MatchResult]) -> tuple[float, float]:
    """The two teams' summed board points (EKML §29(3))."""
    a = sum(side_points(guide.points, r, "a") for r in boards.values())
    b = sum(side_points(guide.points, r, "b") for r in boards.values())
    return a, b


def decided(guide: Guide, boards: dict[int, MatchResult]) -> bool:
    """Whether no unplayed board can change the team result (NOVUS08 23.2)."""
    settings = guide.teams
    left = settings.boards - len(boards) if settings else 0
    a, b = board_totals(guide, boards)
    return abs(a - b) > left * guide.points.win or left == 0


def team_result(boards: dict[int, MatchResult]) -> MatchResult:
    """The team match as one result: boards won each and drawn boards stand in for games
    (EKML §29(3): more boards won is more board points on the 2/1/0 scale); pucks summed."""
    a_won = sum(1 for r in boards.values() if r.a_games > r.b_games)
    b_won = sum(1 for r in boards.values() if r.b_games > r.a_games)
    pucks = sum(r.a_pucks_diff for r in boards.values())
    return MatchResult(a_won, b_won, len(boards) - a_won - b_won, a_pucks_diff=pucks)


def board_openers(boards: int, seed: int) -> tuple[str, ...]:
    """Which team opens on each board: board I by lot, then alternating (EKML §31(2))."""
    first = "a" if random.Random(seed).random() < 0.5 else "b"
    other = "b" if first == "a" else "a"
    return tuple(first if i % 2 == 0 else other for i in range(boards))


def lineup(team: Team, absent: tuple[str, ...] = ()) -> tuple[str, ...]:
    """Board order for a match: an absent board player is replaced by the first unused
    substitute, keeping the board (EKML §29(2), (6))."""
    spare = [s for s in team.substitutes if s not in absent]
    out = []
    for player in team.boards:
        if player in absent:
            require(
                bool(spare),
                "EKML §29(6)",
                f"no substitute left for {player}",
                "no_substitute_left",
                player=player,
            )
            player = spare.pop(0)
        out.append(player)
    return tuple(out)
