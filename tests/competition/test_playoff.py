"""A Swiss preliminary feeding a play-off (guide), and single elimination with consolation."""

import random

import pytest
from tableside.competition.rules import commands as cmd
from tableside.competition.rules.bracket_view import BYE
from tableside.competition.rules.brackets import single_elimination
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


def _first_round_losers(run) -> set[str]:
    slots = all_slots(run.state).values()
    return {s.loser for s in slots if s.stage == "W" and s.round == 1 and s.loser != BYE}


@pytest.mark.parametrize("n, seed", [(12, 4), (16, 5), (24, 6), (32, 7)])
def test_consolation_results_change_the_first_round_losers_placings(n, seed):
    """The first round's losers share no place: the consolation knockout orders them — its
    winner first, its final's loser next, then by the round that ended their run."""
    run = played_out(Guide("Cup", format="single_elimination", games_per_match=1), n, seed)
    slots = all_slots(run.state)
    final = max((s for s in slots.values() if s.stage == "C"), key=lambda s: s.round)
    placings = final_placings(run.state)
    firsts = _first_round_losers(run)
    first_index = min(i for i, g in enumerate(placings) if set(g) <= firsts)
    assert placings[first_index] == (final.winner,)
    assert placings[first_index + 1] == (final.loser,)
    assert {e for g in placings[first_index:] for e in g} == firsts
    assert sum(len(g) for g in placings) == n
    assert len({e for g in placings for e in g}) == n  # nobody placed twice


def test_without_consolation_the_first_round_losers_share_a_place():
    guide = Guide("Cup", format="single_elimination", games_per_match=1, consolation=False)
    run = played_out(guide, 16, 3)
    placings = final_placings(run.state)
    assert placings[-1] == tuple(sorted(_first_round_losers(run)))


@pytest.mark.parametrize("n, seed", [(16, 8), (13, 9), (32, 10)])
def test_last_chance_orders_the_consolations_first_round_losers(n, seed):
    """With `last_chance`, the consolation's first-round losers play a knockout of their own
    (the third flight of a backgammon event): its winner first among them, its final's loser
    next; every entrant placed once, and the last chance is played like any bracket match."""
    guide = Guide("Cup", format="single_elimination", games_per_match=1, last_chance=True)
    run = played_out(guide, n, seed)
    slots = all_slots(run.state)
    chance = [s for s in slots.values() if s.stage == "LC"]
    assert chance and all(s.winner is not None for s in chance)  # played out
    firsts_of_c = {
        s.loser for s in slots.values() if s.stage == "C" and s.round == 1 and s.loser != BYE
    }
    assert {e for s in chance for e in (s.a, s.b) if e != BYE} == firsts_of_c
    final = max(chance, key=lambda s: s.round)
    placings = final_placings(run.state)
    first_index = min(i for i, g in enumerate(placings) if set(g) <= firsts_of_c)
    assert placings[first_index] == (final.winner,)
    if final.loser != BYE:
        assert placings[first_index + 1] == (final.loser,)
    assert {e for g in placings[first_index:] for e in g} <= firsts_of_c | _first_round_losers(run)
    assert sum(len(g) for g in placings) == n
    assert len({e for g in placings for e in g}) == n


def test_last_chance_needs_a_consolation_of_eight():
    stages = lambda size, **kw: {m.stage for m in single_elimination((None,) * size, **kw).matches}  # noqa: E731
    assert "LC" in stages(16, last_chance=True)
    assert "LC" not in stages(8, last_chance=True)  # a consolation of four: no third flight
    assert "LC" not in stages(16)  # the guide did not ask
    assert "LC" not in stages(16, consolation=False, last_chance=True)
