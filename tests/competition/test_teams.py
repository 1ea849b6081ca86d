"""Team matches (EKML §29): boards summed; every board played in cup and title events
(EKML §29(7)) or stopped once decided (NOVUS08 23.2)."""

import pytest
from tableside.competition.rules import commands as cmd
from tableside.competition.rules.entrants import Person
from tableside.competition.rules.errors import CompetitionRuleError
from tableside.competition.rules.guide import Guide, TeamSettings
from tableside.competition.rules.results import MatchResult
from tableside.competition.rules.standings import StandingsView, standings
from tableside.competition.rules.teams import Team, board_openers, lineup

from .helpers import AT, Run

A_WINS, B_WINS, DRAW = MatchResult(3, 1), MatchResult(1, 3), MatchResult(2, 2)


def team_event(play_all: bool, ruleset: str = "EKML") -> Run:
    """Four clubs of three boards and one substitute, a round robin."""
    settings = TeamSettings(boards=3, substitutes=1, play_all=play_all)
    run = Run(
        Guide(
            "Clubs",
            format="round_robin",
            ruleset=ruleset,
            teams=settings,
            tie_breaks=("board_points",),
        )
    )
    for club in ("Kalev", "Purekkari", "Tartu", "Viljandi"):
        names = tuple(f"{club} {i}" for i in range(1, 5))
        team = Team(names[:3], names[3:])
        run.enter_one(club, tuple(Person(n, 1980, "M") for n in names), team)
    run.do(cmd.MakeDraw(3, AT))
    return run


def test_ekml_29_7_every_board_is_played_then_the_team_result_follows():
    run = team_event(play_all=True)
    run.do(cmd.RecordBoardResult("R1-1", 1, A_WINS, AT))
    assert run.do(cmd.RecordBoardResult("R1-1", 2, A_WINS, AT))[-1].__class__.__name__ == (
        "BoardResultRecorded"
    )
    out = run.do(cmd.RecordBoardResult("R1-1", 3, B_WINS, AT))
    assert out[-1].rule == "EKML §29(7)"
    assert out[-1].result == MatchResult(2, 1, 0)


def test_novus08_23_2_stops_once_decided():
    run = team_event(play_all=False, ruleset="NOVUS08")
    run.do(cmd.RecordBoardResult("R1-1", 1, A_WINS, AT))
    out = run.do(cmd.RecordBoardResult("R1-1", 2, A_WINS, AT))
    assert out[-1].rule == "NOVUS08 23.2"
    with pytest.raises(CompetitionRuleError) as err:
        run.do(cmd.RecordBoardResult("R1-1", 3, B_WINS, AT))
    assert err.value.rule == "NOVUS08 23.2"


def test_team_standings_sum_board_points():
    # R1-1: 2 boards to 1 → 2 team points, board points 4:2. R1-2: all drawn → 1 each, 3:3.
    run = team_event(play_all=True)
    for board, result in enumerate((A_WINS, A_WINS, B_WINS), 1):
        run.do(cmd.RecordBoardResult("R1-1", board, result, AT))
    for board in (1, 2, 3):
        run.do(cmd.RecordBoardResult("R1-2", board, DRAW, AT))
    rows = {r.entrant: r for r in standings(StandingsView(run.state))}
    winner = run.state.rounds[1].pairings[0].a
    assert rows[winner].points == 2 and rows[winner].tie_breaks == (4.0,)
    drawn = run.state.rounds[1].pairings[1].a
    assert rows[drawn].points == 1 and rows[drawn].tie_breaks == (3.0,)


def test_ekml_31_2_board_one_by_lot_then_alternating():
    openers = board_openers(4, seed=5)
    assert openers[0] != openers[1] and openers[0] == openers[2] and openers[1] == openers[3]


def test_ekml_29_6_substitute_keeps_the_board():
    team = Team(("I", "II", "III"), ("S",))
    assert lineup(team, absent=("II",)) == ("I", "S", "III")
    with pytest.raises(CompetitionRuleError):
        lineup(team, absent=("I", "II"))
