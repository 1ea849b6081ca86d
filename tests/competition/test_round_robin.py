"""A round robin run end to end by the Berger tables (EKML §31(1)1), odd field with a bye."""

import random

import pytest
from tableside.competition.rules import commands as cmd
from tableside.competition.rules.berger import round_robin_pairings
from tableside.competition.rules.errors import CompetitionRuleError
from tableside.competition.rules.guide import Guide
from tableside.competition.rules.standings import StandingsView, standings

from .helpers import AT, Run


def test_seven_players_all_rounds_then_placings():
    run = Run(Guide("Club RR", format="round_robin", tie_breaks=("head_to_head", "wins")))
    run.enter(7)
    run.do(cmd.MakeDraw(77, AT))
    expected = round_robin_pairings(run.state.order)
    assert len(run.state.rounds) == 7
    for number, paired in run.state.rounds.items():
        boards = [(p.a, p.b) for p in paired.pairings]
        assert boards == [b for b in expected[number - 1] if b[1] is not None]
        assert paired.bye == next(a for a, b in expected[number - 1] if b is None)
    rng = random.Random(7)
    run.play_all(rng)
    placings = run.do(cmd.FinishCompetition(AT))[0].placings
    rows = standings(StandingsView(run.state))
    assert all(r.played == 6 for r in rows)
    assert [e for g in placings for e in g] == [r.entrant for r in rows]


@pytest.mark.parametrize(
    "when, rule",
    [
        (cmd.PairNextRound(1), "EKML §32"),
        (cmd.DrawPlayoff(AT), "guide play-off"),
        (cmd.MakeDraw(2, AT), "EKML §12(2)2"),
        (cmd.FinishCompetition(AT), "EKML §12(2)6"),
    ],
    ids=["ekml_32_swiss_only", "no_play_off", "ekml_12_2_2_one_draw", "ekml_12_2_6_unplayed"],
)
def test_round_robin_refusals(when, rule):
    run = Run(Guide("Club RR", format="round_robin"))
    run.enter(4)
    run.do(cmd.MakeDraw(1, AT))
    with pytest.raises(CompetitionRuleError) as err:
        run.do(when)
    assert err.value.rule == rule
