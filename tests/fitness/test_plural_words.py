"""Plurals through one rule per language (issue 43 point 2, decision 0130): a count is worded
by CLDR's plural categories (`t(key, {count})` picks `key.one`, `key.zero`, … by
`Intl.PluralRules` in the faces; `web/words.counted` on the server), never by a hand-made
"match(es)", "setu(s)", "punkts(i)" or "spēlētāj(s/i)" that leaves the reader to choose.

Read from the catalogues, so a new "(s)" fails here before anyone reads "1 setu(s)"."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
from tableside.settings import PWA_DIR
from tableside.web.words import plural

CATALOGUES = sorted((PWA_DIR / "i18n").glob("*.json"))
# a word with its other forms in brackets: "match(es)", "setu(s)", "punkts(-i)", "spēlētāj(s/i)"
HAND_MADE = re.compile(r"\w\((?:-?[^\W\d_]{1,3})(?:/[^\W\d_]{1,3})?\)")
# Icelandic's adjective after a name whose gender the record does not hold ("mætt(ur)":
# present, f./m.): a gender, not a count; no plural rule can pick it.
GENDER = {
    ("admin.is.json", "admin.tables.no_show"),
    ("admin.is.json", "admin.col.present"),
    ("admin.is.json", "admin.entrants.present"),
    ("backgammon.is.json", "bg.cmd.RecordLateness"),
}
FORMS = ("one", "zero")


def _messages(path: Path) -> dict[str, str]:
    return json.loads(path.read_text("utf-8"))


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: p.name)
def test_no_message_spells_a_plural_by_hand(path: Path) -> None:
    found = [
        (key, said)
        for key, said in _messages(path).items()
        if HAND_MADE.search(said) and (path.name, key) not in GENDER
    ]
    assert not found, found


def test_the_scan_sees_a_hand_made_plural() -> None:
    for said in ("{count} match(es)", "2 setu(s)", "1 soda punkts(-i)", "ir 2 spēlētāj(s/i)"):
        assert HAND_MADE.search(said), said
    for said in ("KSI 4.3.2 (a die fell)", "EKML §24(1)3", "(off, points 1-24, bar)"):
        assert not HAND_MADE.search(said), said


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: p.name)
def test_a_plural_form_stands_beside_its_base_and_every_language_has_it(path: Path) -> None:
    """`key.one` / `key.zero` beside `key` (what `t` falls back to), in every language of the
    file, so a count reads in each language's own form."""
    said = _messages(path)
    lang = path.name.split(".")[-2]
    for key in said:
        base, _, form = key.rpartition(".")
        if form in FORMS and "{count}" in said[key]:
            assert base in said, (path.name, key)
            for other in path.parent.glob(path.name.replace(f".{lang}.", ".*.")):
                assert key in _messages(other), (other.name, key)


@pytest.mark.parametrize("lang", ["en", "et", "lv", "is"])
def test_a_count_of_rounds_left_reads_in_its_languages_form(lang: str) -> None:
    """The console's "1 round(s) still to pair" is "1 round", Latvian "1 kārta", "21 kārta"."""
    admin = _messages(PWA_DIR / "i18n" / f"admin.{lang}.json")
    for n in (1, 2, 11, 21):
        key = "admin.standings.rounds_left"
        text = admin.get(f"{key}.{plural(lang, n)}", admin[key]).replace("{count}", str(n))
        assert "(" not in text, (lang, n, text)
    assert admin[f"{key}.one"] != admin[key], lang  # "1 round", not "1 rounds"


BACKEND = Path(__file__).resolve().parents[2] / "backend" / "tableside"
# Not a count: a URL's scheme. Not ours to word: the demo's log line (demo/ is another slice's).
NOT_A_COUNT = re.compile(r"http\(s\)")
OTHERS = ("demo/",)


def _strings(tree: ast.Module) -> list[ast.Constant]:
    """A module's string literals, its docstrings left out (they are for its readers)."""
    docs = {
        id(n.body[0].value)
        for n in ast.walk(tree)
        if isinstance(n, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        and n.body
        and isinstance(n.body[0], ast.Expr)
        and isinstance(n.body[0].value, ast.Constant)
    }
    return [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs
    ]


def test_no_server_words_spell_a_plural_by_hand() -> None:
    """The server's words (the PDFs' tables, a refusal's English, an operator's error) are
    worded for any count or through `web/words.counted`, never "penalty point(s)"."""
    found = []
    for path in sorted(BACKEND.rglob("*.py")):
        rel = path.relative_to(BACKEND).as_posix()
        if rel.startswith(OTHERS):
            continue
        for node in _strings(ast.parse(path.read_text("utf-8"))):
            if HAND_MADE.search(NOT_A_COUNT.sub("", node.value)):
                found.append(f"{rel}:{node.lineno} {node.value[:60]!r}")
    assert not found, found


# CLDR's plural categories of each face language besides "other" (the base key): what
# `Intl.PluralRules(lang).select(n)` and `web/words.plural` answer for some whole number.
CATEGORIES = {"en": ("one",), "et": ("one",), "is": ("one",), "lv": ("zero", "one")}
# A position, not a quantity: "remark 2 of 3", "Piezīme 2/3" reads the same for any number.
POSITIONS = {"judge.remark_given", "judge.remark_given.NOVUS08", "ev.RemarkGiven",
             "ev.RemarkGiven.NOVUS08"}  # fmt: skip
PLURAL_FORMS = {"zero", "one", "two", "few", "many", "other"}


def _counted(said: dict[str, str]) -> list[str]:
    """The messages that count something: a `{count}` in a key that is no plural form."""
    return [
        key
        for key, text in said.items()
        if "{count}" in text and key.rpartition(".")[2] not in PLURAL_FORMS and key not in POSITIONS
    ]


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: p.name)
def test_every_counted_message_has_its_languages_plural_forms(path: Path) -> None:
    """Issue 54 point 4: "1 gaidošos ierakstus", "Tavi 1 gaidošie ieraksti", "1 ootel kirjet":
    a counted message of any face without the forms its language's plural rule picks. Every
    `{count}` message has `key.<category>` for each CLDR category of the language but
    "other" (the base), so `t(key, {count})` reads "1 gaidošais ieraksts" and "21 …"."""
    said = _messages(path)
    lang = path.name.split(".")[-2]
    missing = [
        f"{key}.{form}" for key in _counted(said) for form in CATEGORIES[lang]
        if f"{key}.{form}" not in said
    ]  # fmt: skip
    assert not missing, (path.name, missing)


def test_the_plural_scan_sees_a_counted_message_without_forms() -> None:
    said = {"x.conflict": "Tavi {count} gaidošie ieraksti", "x.score": "Remark {count}/3"}
    assert _counted(said) == ["x.conflict", "x.score"]
    assert _counted({**said, "x.conflict.one": "Tavs {count} ieraksts"}) == [
        "x.conflict",
        "x.score",
    ]
    assert not _counted({"judge.remark_given": "Piezīme {count}/3: {name}"})


# The conflict sheet's "your N waiting entries", as each count reads (1, 21: Latvian's "one").
CONFLICT = {
    ("lv", 1): "Tavs 1 gaidošais ieraksts", ("lv", 21): "Tavs 21 gaidošais ieraksts",
    ("lv", 2): "Tavi 2 gaidošie ieraksti", ("lv", 11): "Tavi 11 gaidošie ieraksti",
    ("et", 1): "Sinu 1 ootel kirje tehti", ("et", 21): "Sinu 21 ootel kirjet",
    ("en", 1): "Your 1 waiting entry was", ("en", 11): "Your 11 waiting entries were",
}  # fmt: skip


@pytest.mark.parametrize(("lang", "n"), sorted(CONFLICT))
def test_the_pads_conflict_message_reads_in_its_languages_form(lang: str, n: int) -> None:
    """The forms the faces' `t` picks (`Intl.PluralRules`, as `web/words.plural` here)."""
    judge = _messages(PWA_DIR / "i18n" / f"judge.{lang}.json")
    key = "judge.conflict_text"
    text = judge.get(f"{key}.{plural(lang, n)}", judge[key]).replace("{count}", str(n))
    assert CONFLICT[lang, n] in text, text
