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
from tableside.competition.rules.bracket_view import BYE
from tableside.competition.rules.guide import Guide
from tableside.competition.rules.matches import pairings, slots
from tableside.competition.rules.standings import StandingsView, standings

from .helpers import AT, Run, played_out, random_result

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


LATER = "2026-05-01T10:05:00+00:00"  # past the two minutes a called player has (EKML §9(3))


def five_with_a_no_show_and_a_withdrawal(before_the_line: bool) -> Run:
    """Issue 45's round robin of five: a bye every round, a no-show in round 2 (called,
    reported, the forfeit confirmed: EKML §9(3)), and p03's withdrawal — after round 1
    (below the line: all p03's results annulled) or after round 3 (the results stand, the
    rest lost, EKML §32(3)) — played to publication."""
    run = Run(Guide("Küla", format="round_robin", games_per_match=3, ruleset="EKML"))
    run.enter(5)
    run.do(cmd.MakeDraw(7, AT))
    rng = random.Random(45)
    for number in (1, 2, 3, 4, 5):
        if number == (2 if before_the_line else 4):
            run.do(cmd.WithdrawEntrant("p03", AT))
        pairs = run.state.rounds[number].pairings
        absent = next(p.match_id for p in pairs if "p03" not in (p.a, p.b))
        for p in pairs:
            if p.match_id in run.state.results:
                continue
            if number == 2 and p.match_id == absent:
                run.do(cmd.CallMatch(p.match_id, 1, AT))
                run.do(cmd.ReportNoShow(p.match_id, p.b, LATER))
                run.do(cmd.ConfirmForfeit(p.match_id, LATER))
                continue
            run.do(cmd.RecordResult(p.match_id, random_result(rng, 3), AT))
    run.do(cmd.FinishCompetition(AT))
    return run


def per_player(rows: list[list], names: dict[str, str]) -> dict[str, tuple]:
    """(games won, games lost, points) per entrant, summed over a file's rows."""
    out: dict[str, list] = {}
    for r in rows:
        for name, won, lost, points in ((r[2], r[4], r[5], r[8]), (r[3], r[5], r[4], r[9])):
            if name:
                got = out.setdefault(names[name], [0, 0, 0.0])
                got[0] += int(won or 0)
                got[1] += int(lost or 0)
                got[2] += float(points or 0)
    return {e: tuple(v) for e, v in out.items()}


@pytest.mark.parametrize("before_the_line", [True, False], ids=["annulled", "results_stand"])
def test_ekml_32_3_every_column_of_the_files_adds_up_to_the_published_table(before_the_line):
    """Issue 45: unplayed matches carried 3:0 games and an "A won" code, so one player summed
    10:4 in the file and 4:4 in the table. Now each unplayed row has no games and a code
    that says why, and summing either file per player gives the published games and points."""
    run = five_with_a_no_show_and_a_withdrawal(before_the_line)
    names = {e.name: e.id for e in run.state.entrants.values()}
    table = {
        r.entrant: (r.games_won, r.games_lost, r.points)
        for r in standings(StandingsView(run.state))
    }
    csv_rows = list(csv.reader(io.StringIO(results_csv(run.state, "en").decode())))[1:]
    sheet = load_workbook(io.BytesIO(results_xlsx(run.state, "en"))).active
    xlsx_rows = [["" if v is None else v for v in row] for row in sheet.iter_rows(values_only=True)]
    for rows in (csv_rows, xlsx_rows[1:]):
        summed_up = per_player(rows, names)
        assert {e: summed_up[e] for e in table} == table
        kinds = Counter(r[7] for r in rows)
        assert kinds["bye"] == 5 and kinds["forfeit"] >= 1  # the no-show
        assert kinds["annulled"] >= 1 if before_the_line else kinds["forfeit"] >= 2, kinds
        for r in rows:
            unplayed = r[7] != "played"
            assert (r[4], r[5]) == ("", "") if unplayed else (r[4], r[5]) != ("", ""), r
            codes = {"forfeit": {"F1", "F2"}, "annulled": {"X"}, "bye": {"B"}}
            assert str(r[6]) in codes.get(r[7], {"1", "2", "3"}), r
    if before_the_line:  # annulled: counted for nobody, p03 not in the table at all
        assert summed(csv_rows, names).get("p03", 0) == 0 and "p03" not in table


@pytest.mark.parametrize("fmt", ["double_elimination", "single_elimination"])
def test_a_brackets_file_lists_its_byes_as_the_round_robins_does(fmt):
    """Issue 45: the double elimination's CSV left out byes while the round robin's listed
    them. Twelve on a 16-place bracket: four byes, each a row with no games, code B."""
    run = played_out(Guide("Karikas", format=fmt, games_per_match=1), 12, seed=3)
    rows = list(csv.reader(io.StringIO(results_csv(run.state, "en").decode())))[1:]
    byes = [r for r in rows if r[7] == "bye"]
    assert all((r[3], r[4], r[5], r[6]) == ("", "", "", "B") for r in byes)
    seeded_byes = {s.a for s in slots(run.state, run.state.bracket).values()
                   if s.id.startswith("W1-") and s.b == BYE}  # fmt: skip
    assert len(seeded_byes) == 4 and seeded_byes <= {r[2] for r in byes if r[0] == "1"}
    names = {e.name: e.id for e in run.state.entrants.values()}
    table = {r.entrant: (r.games_won, r.games_lost, r.points)
             for r in standings(StandingsView(run.state))}  # fmt: skip
    summed_up = per_player(rows, names)
    assert {e: summed_up[e] for e in table} == table


def test_a_double_eliminations_byes_name_their_slot_and_its_round():
    """Issue 54, point 10: every double elimination bye said round 1 with no match id. Each
    bye row now names its bracket slot (W1-3, L1-2…), its round the slot's."""
    run = played_out(Guide("Karikas", format="double_elimination", games_per_match=1), 12, seed=3)
    rows = list(csv.reader(io.StringIO(results_csv(run.state, "en").decode())))[1:]
    byes = [r for r in rows if r[7] == "bye"]
    ids = {s.id: s for s in slots(run.state, run.state.bracket).values()}
    assert byes and all(r[10] in ids for r in byes), byes
    assert all(r[0] == str(ids[r[10]].round) for r in byes)
    assert len({r[10] for r in byes}) == len(byes)  # one row per bye


def test_the_results_workbooks_sheet_is_named_in_the_files_language():
    """Issue 54, point 10: the Estonian workbook's sheet was named "Results"."""
    run = five_with_a_withdrawal()
    for lang, title in (("et", "Tulemused"), ("lv", "Rezultāti"), ("en", "Results")):
        assert load_workbook(io.BytesIO(results_xlsx(run.state, lang))).active.title == title
