"""The standings as a PDF (issue 13, point 4): the console's table — places in order, points,
W-D-L, games, pucks, tie-breaks — and the final placings, in the console's words for each
language, the same bytes for the same standings; unknown competitions and languages refused."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import uuid
from pathlib import Path

import pytest
from support.competition_play import Comp, player
from support.harness import Api
from tableside.competition.docs import competition_doc, standings_rows
from tableside.competition.rules import commands as cmd
from tableside.competition.rules.guide import Guide
from tableside.competition.standings_pdf import standings_pdf

from .helpers import AT, played_out

ROOT = Path(__file__).resolve().parents[2]
GUIDE = {"name": "Talvekarikas", "format": "round_robin", "games_per_match": 1}
NAMES = ["Mari Tõnisson", "Jānis Bērziņš", "Ülle Õunapuu", "Kārlis Ščerbakovs"]


@pytest.fixture(scope="module")
def finished(head: Api) -> Comp:
    comp = Comp.create(head, GUIDE)
    comp.enter([(f"e{i}", [player(name)]) for i, name in enumerate(NAMES, 1)])
    comp.do({"type": "MakeDraw", "seed": 4})
    for rnd in comp.settled()["rounds"]:
        for n, p in enumerate(rnd["pairings"]):
            a_won = (rnd["round"] + n) % 2 == 0
            result = {"a_games": int(a_won), "b_games": int(not a_won), "a_pucks_diff": 2}
            comp.do({"type": "RecordResult", "match_id": p["match_id"], "result": result})
    comp.do({"type": "FinishCompetition"})
    return comp


def _text(pdf: bytes, tmp_path: Path) -> str:
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext missing: run `make pdf-tools` as root (poppler-utils)")
    path = tmp_path / "standings.pdf"
    path.write_bytes(pdf)
    out = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True)
    return out.stdout


@pytest.mark.parametrize("lang", ["et", "lv", "en", "is"])
def test_standings_pdf_prints_the_consoles_table_in_its_words(
    finished: Comp, server, lang: str, tmp_path: Path
) -> None:
    anyone = Api(server.base)
    shown = finished.settled()  # what the console shows once the finish is in its read model
    url = f"/api/competitions/{finished.id}/standings.pdf"
    r = anyone.get(url, lang=lang, min_position=shown["position"])
    assert r.status_code == 200 and r.headers["content-type"] == "application/pdf"
    assert "attachment" in r.headers["content-disposition"]
    text = _text(r.content, tmp_path)
    words = json.loads((ROOT / "pwa" / "i18n" / f"admin.{lang}.json").read_text())
    for key in ("admin.col.place", "admin.col.points", "admin.standings.wdl"):
        assert words[key] in text, (key, text)
    for key in (
        "admin.standings.placings",
        "admin.standings.published",
        "admin.format.round_robin",
    ):
        assert words[key] in text, (key, text)
    rows = finished.doc("/standings")["rows"]
    # The names print in the standings' order, each with its points and W-D-L.
    at = [text.index(row["name"]) for row in rows]
    assert at == sorted(at), text
    for row in rows:
        line = next(x for x in text.splitlines() if row["name"] in x)
        wdl = f"{row['won']}-{row['drawn']}-{row['lost']}"
        assert re.search(rf"\b{row['points']:g}\b.*\b{row['played']}\b.*{wdl}", line), line
    assert (
        r.content == anyone.get(f"/api/competitions/{finished.id}/standings.pdf", lang=lang).content
    )  # the same standings, the same bytes


def test_a_provisional_table_says_so(head: Api, server, tmp_path: Path) -> None:
    comp = Comp.create(head, {**GUIDE, "name": "Kevadkarikas"})
    comp.enter([(f"p{i}", [player(name)]) for i, name in enumerate(NAMES, 1)])
    r = Api(server.base).get(f"/api/competitions/{comp.id}/standings.pdf", lang="et")
    assert r.status_code == 200, r.text
    words = json.loads((ROOT / "pwa" / "i18n" / "admin.et.json").read_text())
    assert words["admin.standings.provisional"] in _text(r.content, tmp_path)


def test_unknown_competition_or_language_is_refused(finished: Comp, server) -> None:
    anyone = Api(server.base)
    r = anyone.get(f"/api/competitions/{uuid.uuid4()}/standings.pdf")
    assert r.status_code == 404 and r.headers["content-type"].startswith("application/problem")
    r = anyone.get(f"/api/competitions/{finished.id}/standings.pdf", lang="de")
    assert r.status_code == 400 and r.headers["content-type"].startswith("application/problem")


@pytest.mark.parametrize("fmt", ["double_elimination", "single_elimination"])
def test_a_brackets_pdf_says_its_places_come_from_the_bracket_with_no_empty_column(
    fmt: str, tmp_path: Path
) -> None:
    """Issue 54, point 10: a bracket's standings PDF printed the round robin's "Ties broken
    by" and an empty tie-breaks column. Now it says how a bracket places, and has none."""
    run = played_out(Guide("Karikas", format=fmt, games_per_match=1), 8, seed=3)
    run.do(cmd.FinishCompetition(AT))
    words = json.loads((ROOT / "pwa" / "i18n" / "admin.en.json").read_text())
    pdf = standings_pdf(competition_doc(run.state, 1, 1), standings_rows(run.state), "en")
    text = _text(pdf, tmp_path)
    flat = " ".join(text.split())
    assert words["admin.standings.by_bracket"] in flat, flat
    assert "Ties broken by" not in flat and words["admin.col.tie_breaks"] not in flat
