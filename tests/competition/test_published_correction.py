"""A published event corrected (issue 54, point 9; decision 0191): a name typo found at the
prize-giving ("Rename" was offered and refused, so it stayed in the published results). The
head judge corrects it with a reason: recorded as an event with who and why, the results
republished as edition 2, edition 1 kept — the PDF and the results files of edition 1 still
served, each marked superseded, and the current ones saying what they correct."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import openpyxl
import pytest
from support.competition_play import Comp, player, published_round_robin
from support.harness import ADMIN, Api
from support.pdf_text import pdf_text

GUIDE = {"name": "Külaturniir", "format": "round_robin", "games_per_match": 1}
TYPO, RIGHT = "Jaan Kaks", "Jaan Kask"
WHY = "name misspelt on the entry form"


@pytest.fixture(scope="module")
def published(head: Api) -> Comp:
    comp = published_round_robin(
        head, "Külaturniir", ["Mari Tamm", TYPO, "Liis Mets", "Peeter Kuusk"]
    )
    assert comp.settled()["edition"] == 1
    return comp


def correction(**over) -> dict:
    return {
        "type": "CorrectPublished",
        "entrant_id": "e2",
        "name": RIGHT,
        "members": [player(RIGHT)],
        "reason": WHY,
        **over,
    }


def _rows(r) -> list[list[str]]:
    assert r.status_code == 200, r.text
    return list(csv.reader(io.StringIO(r.text)))


def test_a_correction_before_publication_or_without_a_reason_is_refused(head: Api) -> None:
    comp = Comp.create(head, {**GUIDE, "name": "Pooleli"})
    comp.enter([("e1", [player("Mari Tamm")]), ("e2", [player(TYPO)])])
    r = comp.post(correction())
    assert r.status_code == 422 and r.json()["code"] == "not_published", r.text


def test_a_published_name_is_corrected_with_who_and_why_as_edition_2(
    published: Comp, head: Api, server, tmp_path: Path
) -> None:
    anyone = Api(server.base)
    base = f"/api/competitions/{published.id}"
    before_csv = _rows(anyone.get(f"{base}/results.csv", lang="en"))
    # Refused: no reason, nothing changed, a secretary's (403); "Rename" still refused.
    blank = published.post(correction(reason=" "))  # the strict body names the field
    assert blank.status_code == 422 and blank.json()["field"] == "command.reason", blank.text
    r = published.post(correction(name=TYPO, members=[player(TYPO)]))
    assert r.status_code == 422 and r.json()["code"] == "correction_changes_nothing", r.text
    r = published.post(
        {"type": "RenameEntrant", "entrant_id": "e2", "name": RIGHT, "members": [player(RIGHT)]}
    )
    assert r.status_code == 422 and r.json()["code"] == "competition_finished", r.text
    # Corrected: recorded as an event with who (the signed-in head judge) and why.
    events = published.do(correction(by="somebody else"))["events"]
    assert [e["type"] for e in events] == ["PublishedCorrected"]
    said = events[0]["data"] if "data" in events[0] else events[0]
    doc = published.settled()
    assert doc["edition"] == 2
    (made,) = doc["corrections"]
    assert (made["edition"], made["was_name"], made["name"]) == (2, TYPO, RIGHT)
    assert (made["reason"], made["by"]) == (WHY, ADMIN[0]), said
    assert {e["id"]: e["name"] for e in doc["entrants"]}["e2"] == RIGHT
    # The results file now: the right name, an edition column; edition 1 kept, superseded.
    now = _rows(anyone.get(f"{base}/results.csv", lang="en"))
    assert now[0][-1] == "Edition" and {r[-1] for r in now[1:]} == {"2"}
    assert RIGHT in {c for r in now for c in r} and TYPO not in {c for r in now for c in r}
    then = _rows(anyone.get(f"{base}/results.csv", lang="en", edition=1))
    assert [r[:-1] for r in then] == before_csv  # the published edition 1, as it was
    assert then[1][-1].startswith("1, superseded by edition 2") and WHY in then[1][-1]
    # The PDF: edition 2 says what it corrects; edition 1 is marked superseded.
    text = pdf_text(anyone.get(f"{base}/standings.pdf", lang="en").content, tmp_path)
    assert "Edition 2" in text and "corrects edition 1" in text and RIGHT in text
    old = anyone.get(f"{base}/standings.pdf", lang="en", edition=1)
    assert old.status_code == 200 and "edition-1" in old.headers["content-disposition"]
    old_text = pdf_text(old.content, tmp_path)
    assert "SUPERSEDED" in old_text and TYPO in old_text and WHY in old_text
    # The workbook of edition 1 in Estonian: its sheet in Estonian, marked superseded.
    book = openpyxl.load_workbook(
        io.BytesIO(anyone.get(f"{base}/results.xlsx", lang="et", edition=1).content)
    )
    sheet = book.active
    assert sheet.title == "Tulemused"
    assert sheet.cell(1, sheet.max_column).value == "Väljaanne"
    assert "asendatud väljaandega 2" in sheet.cell(2, sheet.max_column).value
    # No such edition: 404 with a code, saying which is the newest.
    missing = anyone.get(f"{base}/results.csv", edition=3)
    assert missing.status_code == 404 and missing.json()["code"] == "no_such_edition"


def test_only_the_head_judge_corrects_published_results(published: Comp, server, head) -> None:
    r = head.http.post(
        "/api/accounts",
        headers=head.headers(),
        json={"username": "sec", "role": "secretary", "password": "sec-secret-1"},
    )
    assert r.status_code == 201, r.text
    secretary = Api(server.base).login("sec", "sec-secret-1")
    r = published.post(correction(name="Jaan Kask-Tamm"), api=secretary)
    assert r.status_code == 403, r.text
