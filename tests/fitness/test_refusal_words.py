"""One vocabulary (issue 43 point 2, decision 0130): every refusal the korona engine, the
competition and the API raise carries a code, and every code has words in each language a face
speaks (et, lv, en, is) in `pwa/i18n/codes.<lang>.json`, with the same figures. The backgammon
engine's refusals too (decision 0146): they carry `bg_*` codes like every other.

The raise sites are read from the source: a rule error (`RuleViolation`,
`CompetitionRuleError`, `RuleError`) names its code (`code=` or fourth argument; `require` and
`_refuse` pass theirs on), an HTTP refusal carries `extra=coded(...)`. A code handed on from
elsewhere is allowed only where PASSED names it, so a new pass-through is seen here.
"""

from __future__ import annotations

import ast
import json
import re
from functools import cache
from pathlib import Path

import pytest
from tableside.settings import PWA_DIR
from tableside.web.problems import TITLES

BACKEND = Path(__file__).resolve().parents[2] / "backend" / "tableside"
LANGUAGES = ("en", "et", "lv", "is")
RAISERS = {"RuleViolation", "CompetitionRuleError", "RuleError", "NameRefused"}
# Calls whose fourth argument is a refusal's code (its `params` after it, by name).
CODE_AT_3 = {"require", "too_many"}
CODE_AT_1 = {"_refuse"}  # korona's counts: _refuse(rule, code, field)
# A .mat file's refusal: MatFormatError(line, message, …, code=, figures by name; its line one)
BY_NAME = {"MatFormatError"}
HTTP = {
    "HTTPException",
    "NotFoundException",
    "NotAuthorizedException",
    "PermissionDeniedException",
    "ClientException",
}
# Where a code is handed on rather than written: the helper's own parameter, a re-raise.
PASSED = {
    ("competition/rules/errors.py", "code"),
    ("disciplines/korona/stroke_checks.py", "code"),
    ("competition/rules/swiss.py", "code"),
    ("competition/http/reads.py", "exc.code"),
    ("web/problems.py", "code"),
    ("staff/login_routes.py", "code"),
    ("disciplines/backgammon/mat.py", "exc.code"),  # the engine's refusal of a record
    ("plugins/backgammon/commanding.py", "exc.code"),  # a .mat file's refusal
    ("federation/routes.py", "refusal.code"),  # judge.py's, tests/federation/test_words.py
    ("federation/offers.py", "code"),
}
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _name(call: ast.Call) -> str:
    return getattr(call.func, "id", "") or getattr(call.func, "attr", "")


def _code_node(call: ast.Call, name: str) -> ast.expr | None:
    for k in call.keywords:
        if k.arg == "code":
            return k.value
    at = 3 if name in RAISERS | CODE_AT_3 else 1 if name in CODE_AT_1 else None
    return call.args[at] if at is not None and len(call.args) > at else None


def _params(call: ast.Call, name: str) -> set[str] | None:
    """The figures a site names (None where they come whole from elsewhere)."""
    if name == "NameRefused":  # names.py: its figures by keyword, as require's
        return {k.arg for k in call.keywords if k.arg not in (None, "code")}
    if name in BY_NAME:
        return {"line"} | {k.arg for k in call.keywords if k.arg not in (None, "code")}
    if name in RAISERS:
        given = next((k.value for k in call.keywords if k.arg == "params"), None)
        if given is None and len(call.args) > 4:
            given = call.args[4]
        if given is None:
            return set()
        return (
            {k.value for k in given.keys if isinstance(k, ast.Constant)}
            if isinstance(given, ast.Dict)
            else None
        )
    return (
        {k.arg for k in call.keywords if k.arg not in (None, "code")}
        if name != "_refuse"
        else set()
    )


@cache
def sites() -> tuple[list[tuple[str, int, str, set[str] | None]], list[str]]:
    """(file, line, code, figures) of every coded refusal; and what refuses without a code."""
    coded: list[tuple[str, int, str, set[str] | None]] = []
    bare: list[str] = []
    for path in sorted(BACKEND.rglob("*.py")):
        rel = path.relative_to(BACKEND).as_posix()
        tree = ast.parse(path.read_text("utf-8"))
        rule_require = _rule_require(tree) or rel == "competition/rules/errors.py"
        constants = _constants(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                http = node.exc
                if _name(http) in HTTP and (http.args or http.keywords):
                    extra = next((k.value for k in http.keywords if k.arg == "extra"), None)
                    if extra is None or "coded(" not in ast.unparse(extra):
                        bare.append(f"{rel}:{node.lineno} {ast.unparse(http)[:80]}")
            if not isinstance(node, ast.Call):
                continue
            name = _name(node)
            if name == "__init__" and any(k.arg == "detail" for k in node.keywords):
                extra = next((k.value for k in node.keywords if k.arg == "extra"), None)
                if extra is None or "coded(" not in ast.unparse(extra):  # an HTTP refusal's own
                    bare.append(f"{rel}:{node.lineno} {ast.unparse(node)[:80]}")  # class
            if name == "coded" and node.args:
                literal = _literal(node.args[0]) or constants.get(ast.unparse(node.args[0]), "")
                if literal:
                    coded.append((rel, node.lineno, literal, _params(node, name)))
                elif (rel, ast.unparse(node.args[0])) not in PASSED:
                    bare.append(f"{rel}:{node.lineno} code {ast.unparse(node.args[0])} handed on")
                continue
            if name in CODE_AT_1 and rel != "disciplines/korona/stroke_checks.py":
                continue  # another module's own _refuse (the checkpoint signer's)
            if name not in RAISERS | CODE_AT_3 | CODE_AT_1 | BY_NAME or (
                name == "require" and not rule_require
            ):
                continue
            code = _code_node(node, name)
            if code is None:
                bare.append(f"{rel}:{node.lineno} {ast.unparse(node)[:80]}")
            elif _literals(code):
                given = _params(node, name)
                coded += [(rel, node.lineno, c, given) for c in _literals(code)]
            elif (rel, ast.unparse(code)) not in PASSED:
                bare.append(f"{rel}:{node.lineno} code {ast.unparse(code)} handed on")
        coded += _returned_codes(rel, tree)
    return coded, bare


def _returned_codes(rel: str, tree: ast.AST) -> list[tuple[str, int, str, set[str] | None]]:
    """The Swiss's reasons are returned as (words, code, figures) for its one raise."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple):
            elts = node.value.elts
            if len(elts) == 3 and _literal(elts[1]) and rel == "competition/rules/swiss.py":
                found.append((rel, node.lineno, _literal(elts[1]), None))
    return found


def _literal(node: ast.expr) -> str:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else ""


def _literals(node: ast.expr) -> list[str]:
    """A code literal, or both of `"a" if … else "b"`; empty for one handed on."""
    if isinstance(node, ast.IfExp):
        both = _literals(node.body) + _literals(node.orelse)
        return both if all(both) and len(both) == 2 else []
    return [_literal(node)] if _literal(node) else []


def _constants(tree: ast.Module) -> dict[str, str]:
    """A module's own string constants (`INSECURE = "insecure_transport"`), by name."""
    return {
        t.id: n.value.value
        for n in tree.body
        if isinstance(n, ast.Assign) and isinstance(n.value, ast.Constant)
        for t in n.targets
        if isinstance(t, ast.Name) and isinstance(n.value.value, str)
    }


def _rule_require(tree: ast.AST) -> bool:
    """The competition's `require(condition, rule, message, code)`, not the guards' roles."""
    return any(
        isinstance(n, ast.ImportFrom)
        and (n.module or "").endswith("errors")
        and any(a.name == "require" for a in n.names)
        for n in ast.walk(tree)
    )


@cache
def words(name: str, lang: str) -> dict[str, str]:
    stem = f"{name}." if name else ""
    return json.loads((PWA_DIR / "i18n" / f"{stem}{lang}.json").read_text("utf-8"))


def test_the_scan_sees_every_kind_of_raise_site() -> None:
    codes = {code for _, _, code, _ in sites()[0]}
    assert len(codes) > 150  # a broken scan fails here rather than passing on nothing
    assert {"no_game_in_play", "no_show_before_first_game", "counts_negative"} <= codes  # korona
    assert {"wait_not_up", "draw_made", "unpairable", "file_unreadable"} <= codes  # competition
    assert {"wrong_login", "td_entries_td_undoes", "mat_not_a_point", "no_match"} <= codes  # API
    assert {"bg_appeal_after_ruling", "bg_point_held", "bg_pauses_allowed"} <= codes  # KSI


def test_the_scan_reads_the_backgammon_engine() -> None:
    """Every backgammon refusal is one of the scan's sites (none left to a catalogue of its
    own): a raise there without a code fails `test_every_refusal_carries_a_code`."""
    engine = [s for s in sites()[0] if s[0].startswith("disciplines/backgammon/")]
    assert len(engine) >= 95, len(engine)
    assert all(code.startswith(("bg_", "mat_")) for _, _, code, _ in engine)  # mat_: a file's


def test_every_refusal_carries_a_code() -> None:
    assert not sites()[1], sites()[1]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_refusal_code_has_words(lang: str) -> None:
    said = words("codes", lang)
    missing = sorted({f"{f}:{n} {c}" for f, n, c, _ in sites()[0] if f"code.{c}" not in said})
    assert not missing, (lang, missing)


@pytest.mark.parametrize("lang", [x for x in LANGUAGES if x != "en"])
def test_refusal_words_are_translated_with_the_same_figures(lang: str) -> None:
    english, said = words("codes", "en"), words("codes", lang)
    for code in sorted({c for _, _, c, _ in sites()[0]}):
        key = f"code.{code}"
        assert said[key] != english[key], (lang, code, "copied, not translated")
        assert set(PLACEHOLDER.findall(said[key])) == set(PLACEHOLDER.findall(english[key])), (
            lang,
            code,
        )


def test_every_figure_a_code_speaks_of_is_given() -> None:
    english = words("codes", "en")
    for rel, line, code, given in sites()[0]:
        wanted = set(PLACEHOLDER.findall(english.get(f"code.{code}", "")))
        if given is not None:
            assert wanted <= given, (rel, line, code, wanted - given)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_problem_title_has_words(lang: str) -> None:
    said = words("", lang)
    missing = sorted(key for key in TITLES.values() if key not in said)
    assert not missing, (lang, missing)


def test_no_face_matches_a_refusal_by_its_english() -> None:
    """A face words a refusal by its code (decision 0130): no refusal's English words are
    written in a face's script, where they could only be matched against what a server said
    (the entry desk once mapped "a men's event" to its own words)."""
    english = {v for k, v in words("codes", "en").items() if len(v) > 14 and "{" not in v}
    found = []
    for script in sorted((PWA_DIR / "js").glob("*.js")):
        text = script.read_text("utf-8")
        found += [f"{script.name}: {said}" for said in english if f'"{said}"' in text]
    assert not found, found
