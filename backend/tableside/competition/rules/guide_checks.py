"""What a guide must say before a competition can run by it (EKML §3(4)), each refusal citing
its own paragraph. The domain then never meets a setting it cannot work with: anything it
raises besides a CompetitionRuleError is a bug (a logged 500), never a ruling (issue 29).
"""

import math
import re

from .errors import require
from .guide import AgeClass, Guide, PointsScale, TeamSettings, Window

MAX_ROUNDS = 99
MAX_GAMES = 99
MAX_BOARDS = 16
PLAYOFF_SIZES = (4, 8)  # its top 4 (1v4, 2v3) or 8 (decide_draw.draw_playoff)
# ISO-8601 as the guide's instants are written (compared as strings, UTC): a date, a time.
_INSTANT = re.compile(r"\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:\d{2})?")


def check_settings(guide: Guide) -> None:
    """Every number and instant of the guide is one the competition can run by."""
    require(
        bool(guide.name.strip()),
        "EKML §3(4)1",
        "the guide names the competition",
        "guide_names_competition",
    )
    require(
        1 <= guide.rounds <= MAX_ROUNDS,
        "EKML §3(4)6",
        f"1 to {MAX_ROUNDS} rounds",
        "rounds_range",
        most=MAX_ROUNDS,
    )
    require(
        1 <= guide.games_per_match <= MAX_GAMES,
        "EKML §3(4)6",
        "a match has at least one game",
        "match_has_games",
    )
    require(
        1 <= guide.playoff_games <= MAX_GAMES,
        "EKML §3(4)6",
        "a play-off match has games",
        "playoff_has_games",
    )
    require(
        guide.playoff_size in PLAYOFF_SIZES,
        "EKML §3(4)6",
        f"a play-off of {', '.join(map(str, PLAYOFF_SIZES))}",
        "playoff_sizes",
        sizes=", ".join(map(str, PLAYOFF_SIZES)),
    )
    _check_points(guide.points)
    require(
        guide.time_cap is None or guide.time_cap.minutes >= 1,
        "EKML §3(4)6",
        "a round's time cap is at least one minute",
        "time_cap_minute",
    )
    require(
        1900 <= guide.event_year <= 2200,
        "EKML §7(3)",
        "the event's year, by which ages are",
        "event_year",
    )
    if guide.age_class is not None:
        _check_age_class(guide.age_class)
    if guide.registration is not None:
        _check_window(guide.registration)
    if guide.draw_at is not None:
        require(
            _instant(guide.draw_at),
            "EKML §3(4)11",
            "the draw's time is an ISO-8601 instant",
            "draw_instant",
        )
    if guide.teams is not None:
        _check_teams(guide.teams)


def _check_points(points: PointsScale) -> None:
    values = (points.win, points.draw, points.loss)
    require(
        all(math.isfinite(v) and 0 <= v <= 100 for v in values),
        "EKML §32(2)",
        "match points are numbers from 0 to 100",
        "match_points_range",
    )
    require(
        points.win >= points.draw >= points.loss,
        "EKML §32(2)",
        "a win scores at least a draw, a draw at least a loss",
        "points_order",
    )


def _check_age_class(age_class: AgeClass) -> None:
    low, high = age_class.born_from, age_class.born_to
    require(
        low is None or high is None or low <= high,
        "EKML §7(3)",
        "born from ≤ born to",
        "born_range",
    )


def _check_window(window: Window) -> None:
    require(
        _instant(window.opens) and _instant(window.closes),
        "EKML §3(4)9",
        "the registration window's ends are ISO-8601 instants",
        "registration_instants",
    )
    require(
        window.opens < window.closes,
        "EKML §3(4)9",
        "registration opens before it closes",
        "registration_order",
    )


def _check_teams(teams: TeamSettings) -> None:
    require(
        1 <= teams.boards <= MAX_BOARDS,
        "EKML §29(3)",
        f"a team plays 1 to {MAX_BOARDS} boards",
        "team_boards_range",
        most=MAX_BOARDS,
    )
    require(
        0 <= teams.substitutes <= MAX_BOARDS,
        "EKML §29(6)",
        "substitutes: 0 or more",
        "substitutes_range",
    )


def _instant(text: str) -> bool:
    return _INSTANT.fullmatch(text) is not None
