"""An elimination bracket publishes its own placings as standings (KUUSALU, EKML §12(2)6):
1, 2, 3, 4, 5–6, 7–8, 9–12 for twelve pairs on the 16-place double-elimination table, each
row with the matches it played and their points (EKML §32(2): 4/2/0 for pairs), the replay
of the grand final marked not needed, and a results file that adds up to the table."""

import csv
import io
import random
from collections import Counter

from tableside.competition.rules import commands as cmd
from tableside.competition.rules.entrants import Person
from tableside.competition.rules.guide import Guide, pairs_scale
from tableside.competition.rules.interop import COLUMNS, results_csv
from tableside.competition.rules.matches import all_slots, open_matches
from tableside.competition.rules.placings import final_placings
from tableside.competition.rules.results import MatchResult
from tableside.competition.rules.standings import StandingsView, bracket, standings

from .helpers import AT, Run

KUUSALU = Guide(
    "Kuusalu segapaarid",
    discipline="mixed_pairs",
    format="double_elimination",
    games_per_match=1,
    points=pairs_scale(),
)


def twelve_pairs_played_out(seed: int) -> Run:
    """Twelve mixed pairs drawn and played to the end, the winners' champion taking the
    grand final (so its replay is not needed)."""
    run = Run(KUUSALU)
    for i in range(1, 13):
        run.enter_one(
            f"p{i:02d}", (Person(f"Mees {i}", 1980, "M"), Person(f"Naine {i}", 1981, "F"))
        )
    run.do(cmd.MakeDraw(seed, AT))
    rng = random.Random(seed)
    while ready := open_matches(run.state):
        for match_id, _ in ready:
            a_wins = match_id == "GF1" or rng.random() < 0.5
            run.do(cmd.RecordResult(match_id, MatchResult(*((1, 0) if a_wins else (0, 1))), AT))
    return run


def test_kuusalu_double_elimination_standings_are_its_placings():
    run = twelve_pairs_played_out(2026)
    run.do(cmd.FinishCompetition(AT))
    rows = standings(StandingsView(run.state))
    places = [(r.place, r.place_to) for r in rows]
    assert places == [(1, 1), (2, 2), (3, 3), (4, 4), *[(5, 6)] * 2, *[(7, 8)] * 2, *[(9, 12)] * 4]
    by_place: dict[int, set[str]] = {}
    for r in rows:
        by_place.setdefault(r.place, set()).add(r.entrant)
    assert list(by_place.values()) == [set(g) for g in final_placings(run.state)]
    assert all(r.shared == (r.place_to > r.place) for r in rows)
    played, won = Counter(), Counter()
    for rec in run.state.results.values():
        played.update((rec.a, rec.b))
        won[rec.a if rec.result.a_games else rec.b] += 1
    assert sum(played.values()) == 2 * 22  # 2n − 2 matches: no replay of the final
    for r in rows:
        assert (r.played, r.won, r.lost) == (
            played[r.entrant],
            won[r.entrant],
            played[r.entrant] - won[r.entrant],
        )
        assert r.points == 4 * won[r.entrant]  # EKML §32(2): a pair's win is 4 points


def test_kuusalu_grand_final_replay_not_needed_when_the_winners_champion_wins():
    run = twelve_pairs_played_out(7)
    slots = {s.id: s for s in bracket(StandingsView(run.state))}
    assert slots["GF2"].not_needed and not slots["GF1"].not_needed
    assert "GF2" not in run.state.results and all_slots(run.state)["GF2"].not_needed


def test_kuusalu_results_file_adds_up_to_the_standings():
    run = twelve_pairs_played_out(11)
    rows = list(csv.DictReader(io.StringIO(results_csv(run.state).decode()), fieldnames=COLUMNS))[
        1:
    ]
    played = [r for r in rows if r["kind"] == "played"]
    byes = [r for r in rows if r["kind"] == "bye"]  # issue 45: a bracket's file lists them
    assert len(played) == 22 and len(played) + len(byes) == len(rows) and byes
    summed = Counter()
    names = {e.name: e.id for e in run.state.entrants.values()}
    for r in played:
        summed[names[r["name_a"]]] += float(r["points_a"])
        summed[names[r["name_b"]]] += float(r["points_b"])
    table = {r.entrant: r.points for r in standings(StandingsView(run.state))}
    assert {e: p for e, p in summed.items() if p} == {e: p for e, p in table.items() if p}


def test_kuusalu_standings_mid_event_put_those_still_in_first():
    run = Run(KUUSALU)
    for i in range(1, 13):
        run.enter_one(f"p{i:02d}", (Person(f"M {i}", 1980, "M"), Person(f"N {i}", 1981, "F")))
    run.do(cmd.MakeDraw(5, AT))
    rng = random.Random(5)
    for _ in range(3):
        for match_id, _ in open_matches(run.state):
            run.do(cmd.RecordResult(match_id, MatchResult(*rng.choice(((1, 0), (0, 1)))), AT))
    rows = standings(StandingsView(run.state))
    out = {
        e
        for e, k in Counter(
            (r.b if r.result.a_games else r.a) for r in run.state.results.values()
        ).items()
        if k == 2
    }
    assert out and {r.entrant for r in rows[-len(out) :]} == out
    assert rows[0].place == 1 and rows[0].place_to == 12 - len(out)
