"""Refusals in Icelandic (KSI 1.5.1: KSI's official language), Estonian and Latvian: every
refusal the backgammon engine can raise names a `bg_*` code (decision 0146), worded in
`pwa/i18n/codes.<lang>.json` like every other refusal of the house, the Icelandic in KSI's own
terms (the founders' KSI.md glossary); over HTTP a problem's title and detail follow the
request's Accept-Language (the faces send the page's language) and carry the code and figures.

The scan of the raise sites is the kernel's (`tests/fitness/test_refusal_words.py`): a
backgammon raise without a code, or a code without words in et, lv, en or is, fails there."""

from __future__ import annotations

import ast
import inspect
import json
import re
import uuid
from functools import cache
from pathlib import Path

import pytest
from support.harness import Api
from tableside.disciplines import backgammon
from tableside.disciplines.backgammon import RuleViolation, decide
from tableside.disciplines.backgammon import commands as c
from tableside.settings import PWA_DIR
from tableside.web.words import refusal

from .gwt import match, opened

ENGINE = Path(inspect.getfile(backgammon)).parent

# KSI.md's glossary: an English term of a refusal → the stem its Icelandic words must use.
KSI_TERMS = {
    r"\bmatch": "viðureign",
    r"\bcheckers?\b": "leikm",
    r"\bTD\b": "mótsstjór",
    r"\bjury\b": "dómnefnd",
    r"\bmonitor\b": "eftirlitsm",
    r"\bcube\b": "tvöföldunartening",
    r"\bscoresheets?\b": "skorbl",
    r"\bplayers?\b": "keppand|keppend",
}
LANGUAGES = ("en", "et", "lv", "is")


@cache
def codes(lang: str) -> dict[str, str]:
    return json.loads((PWA_DIR / "i18n" / f"codes.{lang}.json").read_text("utf-8"))


def engine_codes() -> set[str]:
    """The code of every `RuleViolation` the engine raises (the kernel's scan fails on one
    without)."""
    found = set()
    for path in ENGINE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "RuleViolation":
                found |= {k.value.value for k in node.keywords if k.arg == "code"}  # type: ignore[attr-defined]
    return found


def test_ksi_1_5_1_every_refusal_of_the_engine_has_icelandic_words() -> None:
    raised = engine_codes()
    assert len(raised) > 90  # the scan sees the engine's refusals
    for lang in LANGUAGES:
        missing = sorted(code for code in raised if f"code.{code}" not in codes(lang))
        assert not missing, (lang, missing)


def test_ksi_1_5_1_the_icelandic_words_are_ksis_terms() -> None:
    """A refusal that speaks of a match, checker, TD, jury, monitor, cube, scoresheet or player
    says viðureign, leikmaður, mótsstjóri, dómnefnd, eftirlitsmaður, tvöföldunarteningur,
    skorblað, keppandi in Icelandic, as KSI's text does."""
    wrong = []
    for code in sorted(engine_codes()):
        english, icelandic = codes("en")[f"code.{code}"], codes("is")[f"code.{code}"]
        for term, stem in KSI_TERMS.items():
            if re.search(term, english) and not re.search(stem, icelandic, re.I):
                wrong.append((code, term, icelandic))
    assert not wrong, wrong


def _refusal(state: object, command: c.Command) -> RuleViolation:
    with pytest.raises(RuleViolation) as refused:
        decide(state, command)  # type: ignore[arg-type]
    return refused.value


def test_a_refused_play_names_its_code_and_figures() -> None:
    """KSI 1.2.1: a play that cannot be made on the board; its point carried to every language."""
    said = _refusal(opened(), c.Play(side="A", moves=((13, 12),)))  # B holds A's 12
    assert (said.rule, said.code, said.params) == ("KSI 1.2.1", "bg_point_held", {"point": "12"})
    assert refusal("en", said.code, said.params) == said.message == "12 is held by the opponent"
    assert refusal("is", said.code, said.params) == "andstæðingurinn á 12"
    assert refusal("lv", said.code, said.params) == "punkts 12 pieder pretiniekam"


def test_a_count_of_pauses_reads_without_a_hand_made_plural() -> None:
    """KSI 2.2.2: the pauses allowed, worded for any count (no "pause(s)")."""
    assert _refusal(opened(), c.TakePause(side="A", own=1)).code == "bg_pause_between_games"
    said = _refusal(match(length=5), c.TakePause(side="A", own=9))
    assert (said.code, said.params) == ("bg_pauses_allowed", {"count": "1", "length": "5"})
    assert refusal("en", said.code, said.params) == said.message
    for lang in LANGUAGES:
        assert "(" not in codes(lang)["code.bg_pauses_allowed"], lang


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
    assert (said["title"], said["rule"], said["code"]) == (
        "Reglubrot",
        "KSI 5.2",
        "bg_appeal_after_ruling",
    )
    assert said["detail"] == "áfrýjun kemur strax á eftir úrskurði"
    english = _refused(head, None)
    assert (english["title"], english["detail"]) == (
        "Rule violation",
        "an appeal follows a ruling at once",
    )


def test_a_refusal_reads_in_estonian_and_latvian_over_http(head: Api) -> None:
    for lang in ("et", "lv"):
        said = _refused(head, lang)
        assert said["detail"] == codes(lang)["code.bg_appeal_after_ruling"], lang
        assert said["code"] == "bg_appeal_after_ruling"
