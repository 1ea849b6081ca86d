"""Issue 11, point 6: names entered over the API that a spreadsheet would run as formulas
come out of results.csv / results.xlsx as inert text (OWASP CSV injection; ASVS 5.0 V1.2.10)."""

from __future__ import annotations

import csv
import io
import uuid

from openpyxl import load_workbook
from support.competition_play import Comp, player
from support.harness import Api

NAMES = ['=HYPERLINK("http://evil.example","x")', "+cmd|' /C calc'!A0", "@SUM(1+1)", "-1+1"]


def test_v1_2_10_results_exports_neutralise_formula_names(server, head):
    comp = Comp.create(head, {"name": "Formula cup", "format": "swiss", "rounds": 3})
    comp.enter([(f"f{i}", [player(name)]) for i, name in enumerate(NAMES, 1)])
    r = head.http.post(
        f"/api/competitions/{comp.id}/rounds/import",
        params={"expected_version": comp.version, "command_id": str(uuid.uuid4())},
        content=b"Table,Player A,Player B\n1,f1,f2\n2,f3,f4\n",
        headers=head.headers(),
    )
    assert r.status_code == 201, r.text
    comp.version = r.json()["last_version"]
    for board in (1, 2):
        comp.do(
            {
                "type": "RecordResult",
                "match_id": f"R1-{board}",
                "result": {"a_games": 3, "b_games": 1},
            }
        )
    anon = Api(server.base)

    rows = list(csv.reader(io.StringIO(anon.get(f"/api/competitions/{comp.id}/results.csv").text)))
    assert [v for row in rows[1:] for v in row[2:4]] == ["'" + n for n in NAMES]
    assert rows[1][4:7] == ["3", "1", "1"]

    xlsx = anon.get(f"/api/competitions/{comp.id}/results.xlsx")
    assert xlsx.status_code == 200 and xlsx.headers["content-type"].startswith(
        "application/vnd.openxmlformats"
    )
    sheet = load_workbook(io.BytesIO(xlsx.content)).active
    cells = [c for row in sheet.iter_rows() for c in row]
    assert all(c.data_type != "f" for c in cells)
    assert [sheet.cell(row=r, column=c).value for r in (2, 3) for c in (3, 4)] == NAMES


def test_an_xlsx_import_is_read_though_a_zip_holds_nul_bytes(server, head):
    """Before: every upload with a NUL byte was refused, so no XLSX could be imported."""
    from openpyxl import Workbook

    comp = Comp.create(head, {"name": "Workbook cup", "format": "swiss", "rounds": 3})
    comp.enter([(f"w{i}", [player(f"Workbook {i}")]) for i in range(1, 5)])
    book = Workbook()
    sheet = book.active
    sheet.title = "EKSPORT"
    sheet.append(["Galds", "Vārds, uzvārds", "Vārds, uzvārds"])
    sheet.append([1, "Workbook 1", "Workbook 4"])
    sheet.append([2, "Workbook 2", "Workbook 3"])
    data = io.BytesIO()
    book.save(data)
    assert b"\x00" in data.getvalue()
    r = head.http.post(
        f"/api/competitions/{comp.id}/rounds/import",
        params={
            "expected_version": comp.version,
            "command_id": str(uuid.uuid4()),
            "format": "xlsx",
        },
        content=data.getvalue(),
        headers=head.headers(),
    )
    assert r.status_code == 201, r.text
