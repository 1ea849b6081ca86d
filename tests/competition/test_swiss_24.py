"""A 24-player Swiss of 7 rounds run end to end through decide/evolve (issue 7, done-when)."""

import random
from collections import defaultdict

from tableside.competition.rules import commands as cmd
from tableside.competition.rules.guide import Guide
from tableside.competition.rules.standings import StandingsView, standings

from .helpers import AT, Run

GUIDE = Guide(
    "Tallinn open",
    format="swiss",
    rounds=7,
    games_per_match=4,
    tie_breaks=("buchholz", "sonneborn_berger"),
)


def run_event(seed: int) -> Run:
    """Draw, seven rounds of calls to 12 tables and simulated results, then the finish."""
    run = Run(GUIDE)
    run.enter(24)
    run.do(cmd.MakeDraw(seed, AT))
    rng = random.Random(seed)
    for number in range(1, 8):
        if number > 1:
            run.do(cmd.PairNextRound(seed + number))
        calls = run.do(cmd.CallNextMatches(tuple(range(1, 13)), AT))
        assert len(calls) == 12
        run.play_open(rng)
    run.do(cmd.FinishCompetition(AT))
    return run


def tally(run: Run) -> tuple[dict, dict]:
    """Points and opponents counted independently from the raw results (2/1/0)."""
    points, opponents = defaultdict(float), defaultdict(list)
    for rec in run.state.results.values():
        a, b = rec.result.a_games, rec.result.b_games
        points[rec.a] += 2 if a > b else 1 if a == b else 0
        points[rec.b] += 2 if b > a else 1 if a == b else 0
        opponents[rec.a].append(rec.b)
        opponents[rec.b].append(rec.a)
    return points, opponents


def test_swiss_24_players_7_rounds_final_standings():
    run = run_event(24)
    points, opponents = tally(run)
    rows = standings(StandingsView(run.state))
    assert len(rows) == 24 and run.state.finished
    assert all(len(opponents[e]) == 7 for e in run.state.entrants)
    for row in rows:
        assert row.points == points[row.entrant]
        buchholz = sum(points[o] for o in opponents[row.entrant])
        assert row.tie_breaks[0] == buchholz
    keys = [(r.points, r.tie_breaks) for r in rows]
    assert keys == sorted(keys, reverse=True)
    placed = [e for group in run.events[-1].placings for e in group]
    assert placed == [r.entrant for r in rows]
