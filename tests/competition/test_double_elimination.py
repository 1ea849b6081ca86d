"""Double elimination on 16/32 brackets with byes (KUUSALU) and beyond 32 on the next power of
two: out after exactly two losses."""

import random
from collections import Counter
from functools import reduce

import msgspec
import pytest
from tableside.competition.rules import commands as cmd
from tableside.competition.rules import events as ev
from tableside.competition.rules.bracket_view import BYE
from tableside.competition.rules.entrants import Person
from tableside.competition.rules.errors import CompetitionRuleError
from tableside.competition.rules.guide import Guide, pairs_scale
from tableside.competition.rules.matches import all_slots
from tableside.competition.rules.placings import final_placings
from tableside.competition.rules.results import MatchResult
from tableside.competition.rules.standings import StandingsView, bracket
from tableside.competition.rules.standings import fold as standings_fold

from .helpers import AT, Run

KUUSALU = Guide(
    "Kuusalu",
    discipline="mixed_pairs",
    format="double_elimination",
    games_per_match=1,
    points=pairs_scale(),
)


def bracket_run(n: int, seed: int) -> Run:
    """n singles drawn into a double-elimination bracket of best-of-one matches."""
    run = Run(Guide("DE", format="double_elimination", games_per_match=1))
    run.enter(n)
    run.do(cmd.MakeDraw(seed, AT))
    return run


def play_out(run: Run, rng: random.Random) -> None:
    """Play every best-of-one match as it becomes ready until none is left."""
    run.play_all(rng, games=1)


def losses(run: Run) -> Counter:
    """Matches lost by each entrant, from the results that still stand."""
    lost = Counter()
    for rec in run.state.results.values():
        lost[rec.b if rec.result.a_games > rec.result.b_games else rec.a] += 1
    return lost


def assert_structurally_valid(run: Run, n: int) -> None:
    """Everyone but the champion is out after exactly two losses; the champion lost ≤ 1."""
    placings = final_placings(run.state)
    champion = placings[0][0]
    lost = losses(run)
    assert {e for e in run.state.entrants if e != champion} == {
        e for e, k in lost.items() if k == 2
    }
    assert lost[champion] <= 1
    assert sum(len(g) for g in placings) == n


@pytest.mark.parametrize(
    "n, seed", [(32, 1), (32, 2), (27, 3), (17, 4), (16, 5), (11, 6)], ids=lambda x: f"kuusalu_{x}"
)
def test_bracket_runs_to_a_valid_end(n, seed):
    run = bracket_run(n, seed)
    assert run.state.bracket.size == (16 if n <= 16 else 32)
    play_out(run, random.Random(seed))
    assert_structurally_valid(run, n)


@pytest.mark.parametrize("n", range(2, 33), ids=lambda n: f"kuusalu_{n}_entrants")
def test_every_field_size_runs_to_a_valid_end(n):
    run = bracket_run(n, n)
    play_out(run, random.Random(n))
    assert_structurally_valid(run, n)


@pytest.mark.parametrize(
    "n, size", [(33, 64), (40, 64), (64, 64), (65, 128), (100, 128)], ids=lambda x: f"{x}"
)
def test_kuusalu_beyond_32_entrants_runs_on_the_next_power_of_two(n, size):
    run = bracket_run(n, n)
    assert run.state.bracket.size == size
    play_out(run, random.Random(n))
    assert_structurally_valid(run, n)


def test_kuusalu_more_than_256_entrants_are_refused_with_the_rule():
    with pytest.raises(CompetitionRuleError) as err:
        bracket_run(257, 1)
    assert err.value.rule == "KUUSALU"


def test_kuusalu_byes_never_meet_each_other_above_half_a_bracket():
    run = bracket_run(20, 9)
    firsts = [s for s in all_slots(run.state).values() if s.id.startswith("W1-")]
    assert all(not (s.a == BYE and s.b == BYE) for s in firsts)
    assert sum(1 for s in firsts if BYE in (s.a, s.b)) == 12


def test_ekml_12_3_5_corrected_round_one_result_reseeds_later_matches():
    run = bracket_run(32, 7)
    rng = random.Random(7)
    for _ in range(3):
        run.play_open(rng, games=1)
    old = run.state.results["W1-1"]
    flipped = MatchResult(old.result.b_games, old.result.a_games)
    before = dict(run.state.results)
    events = run.do(cmd.CorrectResult("W1-1", flipped, "wrong winner entered", AT))
    voided = {e.match_id for e in events if isinstance(e, ev.MatchInvalidated)}
    # The winner of W1-1 played W2-1 and the loser L1-1: both are void, as is what followed.
    assert {"W2-1", "L1-1"} <= voided
    assert all(m in before for m in voided)
    assert before.keys() - voided == run.state.results.keys()
    # The other half of the bracket did not depend on W1-1: its results stand.
    assert {"W1-2", "W2-2", "L1-2"} & before.keys() <= run.state.results.keys()
    slots = all_slots(run.state)
    old_winner, old_loser = (old.a, old.b) if old.result.a_games else (old.b, old.a)
    assert slots["W2-1"].a == old_loser and slots["L1-1"].a == old_winner
    play_out(run, rng)
    assert_structurally_valid(run, 32)


def test_kuusalu_sixteen_mixed_pairs_end_to_end():
    run = Run(KUUSALU)
    for i in range(1, 17):
        pair = (Person(f"M{i}", 1970 + i, "M"), Person(f"N{i}", 1975 + i, "F"))
        run.enter_one(f"pair{i:02d}", pair)
    run.do(cmd.MakeDraw(2026, AT))
    play_out(run, random.Random(16))
    done = run.do(cmd.FinishCompetition(AT))
    placings = done[0].placings
    assert_structurally_valid(run, 16)
    # Champion, runner-up, third and fourth alone; then shared places (5–6, 7–8, 9–12, 13–16).
    assert [len(g) for g in placings] == [1, 1, 1, 1, 2, 2, 4, 4]


def test_ekml_32_3_withdrawn_entrant_forfeits_each_later_match_as_it_comes_up():
    run = bracket_run(16, 3)
    rng = random.Random(3)
    run.play_open(rng, games=1)
    loser = next(r.a if r.result.b_games else r.b for r in run.state.results.values())
    withdrew = run.do(cmd.WithdrawEntrant(loser, AT))[0]
    play_out(run, rng)
    # EKML §9(4): removed from the competition and not placed (15 of 16 are placed).
    assert_structurally_valid(run, 15)
    assert withdrew.rule == "EKML §9(4)"
    assert loser not in {e for g in final_placings(run.state) for e in g}
    forfeits = [r for r in run.state.results.values() if r.result.withdrawal]
    assert len(forfeits) == 1 and loser in (forfeits[0].a, forfeits[0].b)


def test_ekml_3_4_11_no_draw_before_the_guides_draw_time():
    run = Run(Guide("DE", format="double_elimination", draw_at="2026-05-01T17:15:00+00:00"))
    run.enter(8)
    with pytest.raises(CompetitionRuleError) as err:
        run.do(cmd.MakeDraw(1, "2026-05-01T17:10:00+00:00"))
    assert err.value.rule == "EKML §3(4)11"
    assert run.do(cmd.MakeDraw(1, "2026-05-01T17:15:00+00:00"))


def test_ekml_12_3_5_a_call_for_changed_entrants_is_voided():
    run = bracket_run(16, 8)
    run.play_open(random.Random(8), games=1)
    run.do(cmd.CallMatch("W2-1", 1, AT))
    old = run.state.results["W1-1"].result
    out = run.do(cmd.CorrectResult("W1-1", MatchResult(old.b_games, old.a_games), "typo", AT))
    assert [e.match_id for e in out if isinstance(e, ev.MatchInvalidated)] == ["W2-1"]
    assert "W2-1" not in run.state.calls
    run.do(cmd.CallMatch("W2-1", 1, AT))  # the table is free again for the right players


def test_bracket_view_rebuilt_from_zero_equals_the_live_view():
    run = bracket_run(20, 5)
    rng = random.Random(5)
    run.play_open(rng, games=1)
    run.play_open(rng, games=1)
    first = next(m for m in ("W1-1", "W1-2", "W1-3") if m in run.state.results)
    old = run.state.results[first].result
    run.do(cmd.CorrectResult(first, MatchResult(old.b_games, old.a_games), "typo", AT))
    play_out(run, rng)
    live = StandingsView()
    for event in run.events:
        live = standings_fold(live, event)
    rebuilt = reduce(standings_fold, run.events, StandingsView())
    assert msgspec.json.encode(bracket(live)) == msgspec.json.encode(bracket(rebuilt))
    assert sum(1 for s in bracket(live) if s.stage == "W") == 31
