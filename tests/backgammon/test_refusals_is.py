"""Refusals in Icelandic (KSI 1.5.1: KSI's official language): every refusal the backgammon
engine can raise has its Icelandic words, and over HTTP a problem's title and detail follow the
request's Accept-Language (the faces send the page's language)."""

from __future__ import annotations

import ast
import inspect
import re
import uuid
from pathlib import Path

import pytest
from support.harness import Api
from tableside.disciplines import backgammon
from tableside.disciplines.backgammon import board
from tableside.disciplines.backgammon.refusals_is import CATALOGUES, ICELANDIC, words

ENGINE = Path(inspect.getfile(backgammon)).parent


def _template(node: ast.expr) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
    return None


def _raised() -> set[str]:
    """Every refusal's words as the engine writes them, "{}" for what is filled in."""
    found: set[str] = set()
    for path in ENGINE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            called = isinstance(node, ast.Call) and getattr(node.func, "id", "") == "RuleViolation"
            if called and len(node.args) >= 2 and _template(node.args[1]) is not None:
                found.add(_template(node.args[1]) or "")
    physical = ast.parse(inspect.getsource(board.physical_problem))
    found |= {_template(n.value) for n in ast.walk(physical) if isinstance(n, ast.Return)} - {""}
    return {t.replace("{what}", "{}") for t in found if t}


def test_ksi_1_5_1_every_refusal_of_the_engine_has_icelandic_words() -> None:
    raised = _raised()
    assert len(raised) > 80  # the scan sees the engine's refusals
    agreed = "players may not agree the result of {}"  # a game / a match: both written out
    missing = sorted(t for t in raised - {agreed} if t not in ICELANDIC)
    assert not missing, missing
    for english, icelandic in ICELANDIC.items():
        assert english.count("{}") == len(set(re.findall(r"\{\d\}", icelandic))), english
        assert icelandic != english


def test_figures_and_names_carry_over() -> None:
    assert words("30 s of the forced wait are left", "is") == "30 s af skyldubiðinni eru eftir"
    assert words("24/25 does not move a checker forward", "is").startswith("24/25 færir")
    assert words("the board is frozen until the dispute is decided", "en").startswith("the board")


def _refused(api: Api, lang: str | None) -> dict:
    body = {"command_id": str(uuid.uuid4()), "player_a": "Ása", "player_b": "Bjarni", "length": 3}
    r = api.http.post("/api/backgammon/matches", json=body, headers=api.headers())
    assert r.status_code == 201, r.text
    match_id, version = r.json()["match_id"], r.json()["last_version"]
    extra = {"Accept-Language": lang} if lang else {}
    body = {
        "command_id": str(uuid.uuid4()),
        "expected_version": version,
        "command": {"type": "Appeal", "side": "A"},  # no ruling to appeal
    }
    url = f"/api/backgammon/matches/{match_id}/commands"
    r = api.http.post(url, json=body, headers=api.headers() | extra)
    assert r.status_code == 422, r.text
    return r.json()


def test_a_refusal_reads_in_the_requests_language(head: Api) -> None:
    said = _refused(head, "is-IS,is;q=0.9,en;q=0.5")
    assert (said["title"], said["rule"]) == ("Reglubrot", "KSI 5.2")
    assert said["detail"] == "áfrýjun kemur strax á eftir úrskurði"
    english = _refused(head, None)
    assert (english["title"], english["detail"]) == (
        "Rule violation",
        "an appeal follows a ruling at once",
    )


@pytest.mark.parametrize("lang", ["et", "lv"])
def test_every_refusal_of_the_engine_has_estonian_and_latvian_words(lang: str) -> None:
    """Issue 43: the Estonian and Latvian faces read the engine's refusals in their words too,
    through the same templates as the Icelandic (refusals_et_lv)."""
    said = CATALOGUES[lang]
    assert set(said) == set(ICELANDIC)  # every template the Icelandic has, no other
    agreed = "players may not agree the result of {}"
    assert not sorted(t for t in _raised() - {agreed} if t not in said)
    for english, words_ in said.items():
        assert english.count("{}") == len(set(re.findall(r"\{\d\}", words_))), (lang, english)
        assert words_ != english, (lang, english)


def test_a_refusal_reads_in_estonian_and_latvian_over_http(head: Api) -> None:
    for lang in ("et", "lv"):
        said = _refused(head, lang)
        assert said["detail"] == CATALOGUES[lang]["an appeal follows a ruling at once"], lang
