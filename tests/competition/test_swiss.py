"""Swiss through decide/evolve: no repeats, one bye at most (EKML §32(2) note 3, §32(3))."""

import random
from collections import Counter

import pytest
from tableside.competition.rules import commands as cmd
from tableside.competition.rules.errors import CompetitionRuleError
from tableside.competition.rules.guide import Guide
from tableside.competition.rules.records import records

from .helpers import AT, Run


def swiss(n: int, rounds: int, seed: int, guide_rounds: int = 0) -> Run:
    """A Swiss run of n players over the given rounds with random results."""
    run = Run(Guide("Swiss", format="swiss", rounds=guide_rounds or rounds))
    run.enter(n)
    run.do(cmd.MakeDraw(seed, AT))
    rng = random.Random(seed)
    run.play_open(rng)
    for _ in range(rounds - 1):
        run.do(cmd.PairNextRound(rng.randrange(10**6)))
        run.play_open(rng)
    return run


@pytest.mark.parametrize("seed", [1, 2, 3, 7, 42], ids=lambda s: f"ekml_32_2_note3_seed{s}")
def test_fifteen_players_nine_rounds_no_repeat_and_one_bye_each_at_most(seed):
    run = swiss(15, 9, seed)
    met = Counter(frozenset((p.a, p.b)) for r in run.state.rounds.values() for p in r.pairings)
    byes = Counter(r.bye for r in run.state.rounds.values())
    assert len(run.state.rounds) == 9
    assert max(met.values()) == 1
    assert None not in byes and max(byes.values()) == 1


def test_ekml_32_2_note3_bye_scores_a_draw_and_goes_to_the_lowest():
    run = swiss(5, 1, 11)
    bye = run.state.rounds[1].bye
    # Round 1: everyone on 0; the lowest by drawn order takes the bye.
    assert bye == run.state.order[-1]
    bye_game = next(g for g in records(run.state)[bye] if g.kind == "bye")
    assert bye_game.points == 1.0


def test_ekml_31_1_2_opening_alternates_over_rounds():
    run = swiss(8, 5, 3)
    opened = Counter(p.a for r in run.state.rounds.values() for p in r.pairings)
    # Five rounds each: nobody opens more than three times when alternation is kept.
    assert max(opened.values()) <= 3


def test_ekml_32_3_2_withdrawn_player_is_not_paired_again():
    run = swiss(10, 2, 5, guide_rounds=4)
    run.do(cmd.WithdrawEntrant("p01", AT))
    run.do(cmd.PairNextRound(9))
    assert all("p01" not in (p.a, p.b) for p in run.state.rounds[3].pairings)


def test_late_registrant_joins_from_the_next_round():
    run = swiss(8, 1, 4, guide_rounds=3)
    run.enter_one("late", run.state.entrants["p01"].members)
    assert run.state.entrants["late"].joined_round == 2
    run.do(cmd.PairNextRound(1))
    in_round = {x for p in run.state.rounds[2].pairings for x in (p.a, p.b)}
    assert "late" in in_round or run.state.rounds[2].bye == "late"


@pytest.mark.parametrize(
    "when, rule",
    [
        ("before_round_complete", "EKML §12(2)4"),
        ("past_last_round", "EKML §3(4)6"),
    ],
    ids=["ekml_12_2_4_round_incomplete", "ekml_3_4_6_rounds_in_guide"],
)
def test_pairing_refusals(when, rule):
    run = Run(Guide("Swiss", format="swiss", rounds=1 if when == "past_last_round" else 3))
    run.enter(4)
    run.do(cmd.MakeDraw(1, AT))
    if when == "past_last_round":
        run.play_open(random.Random(1))
    with pytest.raises(CompetitionRuleError) as err:
        run.do(cmd.PairNextRound(2))
    assert err.value.rule == rule
