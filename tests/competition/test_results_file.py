"""The results file adds up (issue 34): a round robin of five (a bye each round) with a
withdrawal at half-way, run to publication; each row says what it is (played, forfeit, bye),
the withdrawn player's unplayed matches are forfeits without a table, the headers are in the
event's language, and summing the points of `results.csv` (and of `results.xlsx`) per entrant
gives the published standings (EKML §32(2), §32(3))."""

import csv
import io
import random
from collections import Counter

import pytest
from openpyxl import load_workbook
from tableside.competition.results_file import results_csv, results_xlsx
from tableside.competition.rules import commands as cmd
from tableside.competition.rules.guide import Guide
from tableside.competition.rules.matches import pairings
from tableside.competition.rules.standings import StandingsView, standings

from .helpers import AT, Run, random_result

HEADS = {
    "et": ["Voor", "Laud", "Nimi A", "Nimi B"],
    "lv": ["Kārta", "Galds", "Vārds, uzvārds A", "Vārds, uzvārds B"],
    "en": ["Round", "Table", "Name A", "Name B"],
}
KINDS = {
    "et": {"mängitud", "loobumine", "vaba voor"},
    "lv": {"izspēlēta", "neierašanās", "brīvā kārta"},
    "en": {"played", "forfeit", "bye"},
}


def five_with_a_withdrawal(ruleset: str = "EKML") -> Run:
    """A round robin of five: the first three rounds played, then one player withdraws (at
    the line: the results stand, the unplayed matches are lost, EKML §32(3)); the rest
    played, and the standings published."""
    run = Run(Guide("Talv", format="round_robin", games_per_match=2, ruleset=ruleset))
    run.enter(5)
    run.do(cmd.MakeDraw(5, AT))
    rng = random.Random(5)
    for number in (1, 2, 3, 4, 5):
        if number == 4:
            run.do(cmd.WithdrawEntrant("p03", AT))
        for p in run.state.rounds[number].pairings:
            if p.match_id not in run.state.results:
                run.do(cmd.RecordResult(p.match_id, random_result(rng, 2), AT))
    run.do(cmd.FinishCompetition(AT))
    return run


def summed(rows: list[list], names: dict[str, str]) -> dict[str, float]:
    """Points per entrant as a federation's import would add them up."""
    out = Counter()
    for r in rows:
        for name, points in ((r[2], r[8]), (r[3], r[9])):
            if name:
                out[names[name]] += float(points or 0)
    return dict(out)


@pytest.mark.parametrize("lang", ["et", "lv", "en"])
def test_ekml_32_2_results_csv_adds_up_to_the_published_points(lang):
    run = five_with_a_withdrawal()
    assert run.state.finished and run.state.withdrawals["p03"].results_stand
    rows = list(csv.reader(io.StringIO(results_csv(run.state, lang).decode())))
    assert rows[0][:4] == HEADS[lang]
    assert {r[7] for r in rows[1:]} == KINDS[lang]
    names = {e.name: e.id for e in run.state.entrants.values()}
    table = {r.entrant: r.points for r in standings(StandingsView(run.state))}
    assert summed(rows[1:], names) == table
    forfeits = [r for r in rows[1:] if r[10] and run.state.results[r[10]].result.forfeit]
    assert forfeits and all(r[1] == "" for r in forfeits)  # a forfeit was played at no table
    byes = [r for r in rows[1:] if r[3] == ""]
    assert len(byes) == 5  # five rounds of five: one bye each


def test_ekml_32_3_withdrawn_players_unplayed_matches_are_forfeits_in_the_file():
    run = five_with_a_withdrawal()
    rows = list(csv.reader(io.StringIO(results_csv(run.state, "en").decode())))[1:]
    gone = run.state.entrants["p03"].name
    theirs = [r for r in rows if gone in (r[2], r[3])]
    played = [r for r in theirs if r[7] == "played"]
    forfeit = [r for r in theirs if r[7] == "forfeit"]
    rounds_with_p03 = {int(p.match_id[1:].split("-")[0]) for p in pairings(run.state).values()
                       if "p03" in (p.a, p.b)}  # fmt: skip
    assert len(played) + len(forfeit) == len(rounds_with_p03) and forfeit
    assert all(int(r[0]) >= 4 for r in forfeit)


def test_ekml_32_2_results_xlsx_adds_up_to_the_published_points():
    run = five_with_a_withdrawal()
    sheet = load_workbook(io.BytesIO(results_xlsx(run.state))).active
    rows = [["" if v is None else v for v in row] for row in sheet.iter_rows(values_only=True)]
    assert list(rows[0][:4]) == HEADS["et"]  # an EKML event: Estonian, without asking
    names = {e.name: e.id for e in run.state.entrants.values()}
    table = {r.entrant: r.points for r in standings(StandingsView(run.state))}
    assert summed(rows[1:], names) == table
    assert {r[7] for r in rows[1:]} == KINDS["et"]
