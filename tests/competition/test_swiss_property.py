"""Swiss that never strands (issue 13, build point 3): seeded events of 5–64 entrants, odd and
even, up to n−1 rounds, never a repeat pairing and one bye each at most (EKML §32(2) note 3).

`make test` runs a few hundred events; set SWISS_EVENTS (e.g. 3000) to run thousands."""

import os
import random
from collections import Counter

import pytest
from tableside.competition.rules import commands as cmd
from tableside.competition.rules.errors import CompetitionRuleError
from tableside.competition.rules.guide import Guide

from .helpers import AT, Run

EVENTS = int(os.environ.get("SWISS_EVENTS", "0"))


def run_swiss(n: int, rounds: int, seed: int) -> Run:
    """A Swiss of n players paired and played (random results, draws possible) to the end."""
    run = Run(Guide("Swiss", format="swiss", rounds=rounds))
    run.enter(n)
    rng = random.Random(seed)
    run.do(cmd.MakeDraw(seed, AT))
    run.play_open(rng)
    for _ in range(rounds - 1):
        run.do(cmd.PairNextRound(rng.randrange(10**6)))
        run.play_open(rng)
    return run


def check_sound(run: Run, n: int, rounds: int) -> None:
    """Every round pairs everyone once; no pairing repeats; no second bye."""
    state = run.state
    assert len(state.rounds) == rounds
    met = Counter(frozenset((p.a, p.b)) for r in state.rounds.values() for p in r.pairings)
    byes = Counter(r.bye for r in state.rounds.values() if r.bye is not None)
    assert max(met.values()) == 1
    assert max(byes.values(), default=1) == 1
    for paired in state.rounds.values():
        seen = [x for p in paired.pairings for x in (p.a, p.b)] + [paired.bye] * (n % 2)
        assert sorted(seen) == sorted(state.entrants)


def events(count: int) -> list[tuple[int, int, int]]:
    """(entrants, rounds, seed) of seeded events: small fields up to n−1 rounds, one in eight
    a field of 17–64 — with up to 7 rounds, or up to n−1 in a long run (SWISS_EVENTS)."""
    rng = random.Random(13)
    out = []
    for seed in range(count):
        n = rng.choice(range(5, 17)) if seed % 8 else rng.choice(range(17, 65))
        most = n - 1 if n <= 16 or EVENTS else 7
        out.append((n, rng.randint(max(1, most - 4), most), seed))
    return out


@pytest.mark.parametrize(
    "n, rounds",
    [(7, 6), (7, 7), (9, 8), (9, 9)],
    ids=lambda x: str(x),
)
def test_ekml_32_2_small_odd_fields_never_strand_over_100_seeds(n, rounds):
    for seed in range(100):
        check_sound(run_swiss(n, rounds, seed), n, rounds)


def test_ekml_32_2_note3_seeded_events_5_to_64_never_strand():
    for n, rounds, seed in events(EVENTS or 160):
        check_sound(run_swiss(n, rounds, seed), n, rounds)


@pytest.mark.parametrize("n", [6, 8, 10, 12, 5, 7, 9, 11])
def test_ekml_32_2_full_round_robin_length_is_reached(n):
    """Even fields reach n−1 rounds and odd fields n (each sits out once)."""
    rounds = n - 1 if n % 2 == 0 else n
    for seed in range(10):
        check_sound(run_swiss(n, rounds, seed), n, rounds)


def played_rounds(n: int, rounds: int, played: int) -> Run:
    """A Swiss whose guide asks for more rounds than are played so far."""
    run = Run(Guide("Swiss", format="swiss", rounds=rounds))
    run.enter(n)
    run.do(cmd.MakeDraw(1, AT))
    rng = random.Random(1)
    run.play_open(rng)
    for _ in range(played - 1):
        run.do(cmd.PairNextRound(1))
        run.play_open(rng)
    return run


@pytest.mark.parametrize("n, rounds", [(4, 4), (6, 6), (5, 6)])
def test_ekml_32_2_no_legal_pairing_is_said_truthfully(n, rounds):
    """Past the last possible round the refusal says why: everyone has met everyone."""
    run = played_rounds(n, rounds, rounds - 1)
    with pytest.raises(CompetitionRuleError) as err:
        run.do(cmd.PairNextRound(1))
    assert err.value.rule == "EKML §32(2)"
    assert "bye already" not in err.value.message
    assert "met" in err.value.message
