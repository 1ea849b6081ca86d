"""Standings: points, games, pucks, then the guide's tie-breaks, checked by hand."""

import random
from functools import reduce

import msgspec
import pytest
from tableside.competition.rules import commands as cmd
from tableside.competition.rules import events as ev
from tableside.competition.rules.club_standings import club_standings
from tableside.competition.rules.entrants import Person
from tableside.competition.rules.guide import Guide
from tableside.competition.rules.results import MatchResult
from tableside.competition.rules.standings import StandingsView, fold, standings

from .helpers import AT, Run

# Five players, three Swiss rounds, 2/1/0 points, byes score a draw (EKML §32(2) note 3):
#   R1: A–B 3:1, C–D 2:2, E bye      R2: A–C 3:0, E–B 3:1, D bye      R3: E–A 3:1, B–D 3:1, C bye
# Points: A 2+2+0=4, B 0+0+2=2, C 1+0+1=2, D 1+1+0=2, E 1+2+2=5.
# An unplayed round counts for tie-breaks as a draw against oneself (opponent score = own).
# Buchholz: B = A4+E5+D2 = 11; C = D2+A4+self2 = 8; D = C2+self2+B2 = 6; A = 2+2+5 = 9.
# Cut-1:    B 11-2 = 9, C 8-2 = 6, D 6-2 = 4.    Median: B 11-5-2 = 4, C 8-4-2 = 2, D 6-2-2 = 2.
# Sonneborn-Berger: B = beat D(2) = 2; C = ½·D2 + ½·self2 = 2; D = ½·C2 + ½·self2 = 2.
# Progressive (unplayed as a draw, 1): B 0+0+2 = 2; C 1+1+2 = 4; D 1+2+2 = 5.
# Head to head among B, C, D: B and C never met, so under the default (`all_met`) it separates
# nobody; with `head_to_head="partial"`: B beat D → 2; C drew D → 1; D drew C → 1.
# Games ratio: B 5/(5+7) = .417; D 3/(3+5) = .375; C 2/(2+5) = .286.
ROUNDS = {
    1: ([("A", "B", MatchResult(3, 1, a_pucks_diff=5)), ("C", "D", MatchResult(2, 2))], "E"),
    2: ([("A", "C", MatchResult(3, 0, a_pucks_diff=9)), ("E", "B", MatchResult(3, 1))], "D"),
    3: ([("E", "A", MatchResult(3, 1, a_pucks_diff=2)), ("B", "D", MatchResult(3, 1))], "C"),
}


def given(tie_breaks: tuple[str, ...], **settings) -> list:
    """The hand example as events."""
    guide = Guide("Hand", format="swiss", rounds=3, tie_breaks=tie_breaks, **settings)
    out: list = [ev.CompetitionCreated(guide, AT)]
    for x in "ABCDE":
        out.append(ev.EntrantRegistered(x, x, (Person(x, 1980, "M"),), None, 1, AT))
    out.append(ev.DrawMade(1, tuple("ABCDE"), AT))
    for number, (boards, bye) in ROUNDS.items():
        pairs = tuple(ev.Pairing(f"R{number}-{i}", a, b) for i, (a, b, _) in enumerate(boards, 1))
        out.append(ev.RoundPaired(number, pairs, bye, "EKML §32(2)"))
        for p, (_, _, result) in zip(pairs, boards, strict=True):
            out.append(ev.ResultRecorded(p.match_id, p.a, p.b, result, AT))
    return out


def table(tie_breaks: tuple[str, ...], **settings):
    """Standings of the hand example under the given tie-breaks and guide settings."""
    return standings(reduce(fold, given(tie_breaks, **settings), StandingsView()))


@pytest.mark.parametrize(
    "tie_breaks, order, values",
    [
        (("buchholz",), "EABCD", {"B": 11, "C": 8, "D": 6}),
        (("buchholz_cut1",), "EABCD", {"B": 9, "C": 6, "D": 4}),
        (("median_buchholz",), "EABCD", {"B": 4, "C": 2, "D": 2}),
        (("progressive",), "EADCB", {"B": 2, "C": 4, "D": 5}),
        (("sonneborn_berger", "wins"), "EABCD", {"B": 2, "C": 2, "D": 2}),
        (("head_to_head",), "EABCD", {"B": 0, "C": 0, "D": 0}),
        (("games_ratio",), "EABDC", {"B": 5 / 12, "C": 2 / 7, "D": 3 / 8}),
    ],
    ids=[
        "buchholz",
        "buchholz_cut1",
        "median_buchholz",
        "progressive",
        "sonneborn_berger",
        "head_to_head",
        "games_ratio",
    ],
)
def test_tie_breaks_by_hand(tie_breaks, order, values):
    rows = table(tie_breaks)
    assert "".join(r.entrant for r in rows) == order
    got = {r.entrant: r.tie_breaks[0] for r in rows if r.entrant in values}
    assert got == pytest.approx(values)


def test_points_games_and_pucks_by_hand():
    rows = {r.entrant: r for r in table(("buchholz",))}
    assert rows["E"].points == 5 and rows["A"].points == 4
    assert (rows["A"].games_won, rows["A"].games_lost, rows["A"].pucks_diff) == (7, 4, 12)
    assert (rows["E"].won, rows["E"].drawn, rows["E"].lost, rows["E"].played) == (2, 0, 0, 2)


def test_head_to_head_partial_counts_whoever_was_met():
    rows = table(("head_to_head",), head_to_head="partial")
    assert "".join(r.entrant for r in rows) == "EABCD"
    assert {r.entrant: r.tie_breaks[0] for r in rows[2:]} == {"B": 2, "C": 1, "D": 1}


def test_head_to_head_all_met_separates_nobody_when_not_all_have_met():
    rows = {r.entrant: r for r in table(("head_to_head",))}
    assert rows["B"].place == rows["C"].place == rows["D"].place == 3 and rows["B"].shared


def test_shared_place_when_every_tie_break_is_equal():
    rows = {r.entrant: r for r in table(("head_to_head",), head_to_head="partial")}
    assert rows["C"].place == rows["D"].place == 4 and rows["C"].shared


def swiss_run(seed: int) -> Run:
    """An 11-player Swiss with a corrected result and a withdrawal along the way."""
    run = Run(Guide("Live", format="swiss", rounds=5, tie_breaks=("buchholz", "progressive")))
    run.enter(11)
    run.do(cmd.MakeDraw(seed, AT))
    rng = random.Random(seed)
    run.play_open(rng)
    for number in range(2, 6):
        run.do(cmd.PairNextRound(number))
        run.play_open(rng)
        if number == 3:
            first = run.state.rounds[1].pairings[0].match_id
            run.do(cmd.CorrectResult(first, MatchResult(0, 3), "swapped sides", AT))
            run.do(cmd.WithdrawEntrant(run.state.order[-1], AT))
    return run


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_rebuilt_from_zero_equals_the_live_projection(seed):
    run = swiss_run(seed)
    live = StandingsView()
    for i, event in enumerate(run.events):
        live = fold(live, event)
        rebuilt = reduce(fold, run.events[: i + 1], StandingsView())
        assert msgspec.json.encode(standings(live)) == msgspec.json.encode(standings(rebuilt))
    assert len(standings(live)) == 11


def test_ekml_6_4_club_score_from_the_best_results():
    # Clubs: A and C for "Kalev" (4 + 2 = 6, best 1 → 4), B, D, E for "Tartu" (2+2+5 = 9,
    # best 1 → 5). Best one each: Tartu 5 ahead of Kalev 4.
    events = given(("buchholz",))
    clubs = {"A": "Kalev", "C": "Kalev", "B": "Tartu", "D": "Tartu", "E": "Tartu"}
    events = [
        msgspec.structs.replace(e, members=(Person(e.name, 1980, "M", club=clubs[e.name]),))
        if isinstance(e, ev.EntrantRegistered)
        else e
        for e in events
    ]
    view = reduce(fold, events, StandingsView())
    assert [(r.club, r.points) for r in club_standings(view)] == [("Tartu", 9), ("Kalev", 6)]
    assert [(r.club, r.points) for r in club_standings(view, best=1)] == [
        ("Tartu", 5),
        ("Kalev", 4),
    ]
