"""A Swiss preliminary feeding a play-off (guide), and single elimination with consolation."""

import random

import pytest
from tableside.competition.rules import commands as cmd
from tableside.competition.rules.errors import CompetitionRuleError
from tableside.competition.rules.guide import Guide
from tableside.competition.rules.matches import all_slots
from tableside.competition.rules.placings import final_placings
from tableside.competition.rules.results import MatchResult
from tableside.competition.rules.standings import StandingsView, standings

from .helpers import AT, Run, played_out


def preliminary(size: int = 4) -> Run:
    """Twelve players, five Swiss rounds played."""
    run = Run(Guide("Open", format="swiss_playoff", rounds=5, playoff_size=size))
    run.enter(12)
    run.do(cmd.MakeDraw(12, AT))
    rng = random.Random(12)
    run.play_open(rng)
    for number in range(2, 6):
        run.do(cmd.PairNextRound(number))
        run.play_open(rng)
    return run


def test_top_four_play_1v4_and_2v3_best_of_five_then_the_final():
    run = preliminary()
    top = [r.entrant for r in standings(StandingsView(run.state))][:4]
    run.do(cmd.DrawPlayoff(AT))
    semis = all_slots(run.state)
    assert (semis["P1-1"].a, semis["P1-1"].b) == (top[0], top[3])
    assert (semis["P1-2"].a, semis["P1-2"].b) == (top[1], top[2])
    with pytest.raises(CompetitionRuleError):  # best of five: 3:2 fits, 4:1 does not
        run.do(cmd.RecordResult("P1-1", MatchResult(4, 1), AT))
    run.do(cmd.RecordResult("P1-1", MatchResult(3, 2), AT))
    run.do(cmd.RecordResult("P1-2", MatchResult(0, 3), AT))
    run.do(cmd.RecordResult("P2-1", MatchResult(3, 1), AT))
    run.do(cmd.RecordResult("3P", MatchResult(3, 0), AT))
    placings = run.do(cmd.FinishCompetition(AT))[0].placings
    assert [g[0] for g in placings[:4]] == [top[0], top[2], top[3], top[1]]
    assert sum(len(g) for g in placings) == 12


def test_play_off_of_eight():
    run = preliminary(8)
    run.do(cmd.DrawPlayoff(AT))
    assert sum(1 for s in all_slots(run.state).values() if s.round == 1) == 4


def test_play_off_waits_for_the_last_swiss_round():
    run = Run(Guide("Open", format="swiss_playoff", rounds=5))
    run.enter(8)
    run.do(cmd.MakeDraw(1, AT))
    with pytest.raises(CompetitionRuleError) as err:
        run.do(cmd.DrawPlayoff(AT))
    assert err.value.rule == "guide play-off"


def test_single_elimination_with_third_place_and_consolation():
    run = played_out(Guide("Cup", format="single_elimination", games_per_match=1), 12, 4)
    placings = final_placings(run.state)
    stages = {s.stage for s in all_slots(run.state).values()}
    assert {"W", "3P", "C"} <= stages
    assert [len(g) for g in placings[:4]] == [1, 1, 1, 1]
    assert sum(len(g) for g in placings) == 12
