"""Every code the korona engine can put in an event has words in Estonian, Latvian and English
(issue 14 point 5): the faces and the protocol PDF read them from pwa/i18n/codes.<lang>.json.

The codes are found three ways, so a new one cannot slip past: the closed word lists of
`vocabulary.py`, every string literal the engine passes as a code or reason (read from its
source), and every value simulated matches under all three rulesets actually emit.
"""

from __future__ import annotations

import ast
import json
import random
import typing
from functools import cache
from pathlib import Path

import pytest
from tableside.disciplines.korona import events as ev
from tableside.disciplines.korona import vocabulary as vocab
from tableside.disciplines.korona.simulate import play_match
from tableside.settings import PWA_DIR

ENGINE = Path(vocab.__file__).parent
LISTS = ("StrokeOffence", "IncidentCode", "RemarkReason", "OpeningMethod", "CorrectionBy", "Card")
# Fields of stored events that hold a code (what the faces show in words).
FIELDS = {
    ev.FoulCommitted: ("code",),
    ev.OffenceDisregarded: ("code",),
    ev.GameEnded: ("reason",),
    ev.GameAnnulled: ("reason",),
    ev.MatchEnded: ("reason",),
    ev.PucksRestored: ("what",),
    ev.OpponentPucksLeft: ("what",),
    ev.IncidentReported: ("code", "kind"),
    ev.RemarkGiven: ("reason",),
    ev.PlayerRemoved: ("scope",),
    ev.OpeningShotAssigned: ("method",),
    ev.CorrectionRecorded: ("by",),  # its reason is typed by the head judge: shown as written
    ev.WarningGiven: ("card",),
}
# Calls whose argument at this index is a reason: win(b, side, "cleared", rule), annul(b, …).
REASON_ARG = {"win": 2, "lose": 2, "lose_match": 2, "annul": 1, "end_match": 1}
CODE_KEYWORDS = {"code", "reason", "what", "kind", "scope"}


def _from_lists() -> set[str]:
    return {v for name in LISTS for v in typing.get_args(getattr(vocab, name))}


def _literal(node: ast.AST | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _literals(node: ast.AST) -> set[str]:
    """A literal, or both literals of `"a" if … else "b"` (a refusal's code picked by a test)."""
    if isinstance(node, ast.IfExp):
        return _literals(node.body) | _literals(node.orelse)
    return {_literal(node) or ""}


def _from_source() -> set[str]:
    found: set[str] = set()
    for path in ENGINE.glob("*.py"):
        if path.name.startswith("simulate"):
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            at = REASON_ARG.get(name)
            if at is not None and len(node.args) > at:
                found.add(_literal(node.args[at]) or "")
            for k in node.keywords:
                found |= _literals(k.value) if k.arg in CODE_KEYWORDS else set()
            if name == "append" and node.args and isinstance(node.args[0], ast.Tuple):
                found.add(_literal(node.args[0].elts[0]) or "")  # v.fouls.append((code, rule))
    return found - {""}


def _from_play() -> set[str]:
    found: set[str] = set()
    for seed in range(24):
        rng = random.Random(seed)
        for ruleset in ("EKML", "NOVUS08", "LV"):
            for event in play_match(rng, ruleset, pairs=seed % 2 == 0, games=3):
                for field in FIELDS.get(type(event), ()):
                    found.add(getattr(event, field))
    return found - {""}


@cache
def engine_codes() -> frozenset[str]:
    return frozenset(_from_lists() | _from_source() | _from_play())


def _words(lang: str) -> dict[str, str]:
    return json.loads((PWA_DIR / "i18n" / f"codes.{lang}.json").read_text("utf-8"))


def test_the_sources_of_codes_find_what_the_engine_emits() -> None:
    codes = engine_codes()
    # one of each source, so a broken finder fails here rather than passing vacuously
    assert {"double_hit", "withdrew", "slow_play", "lot"} <= codes  # vocabulary.py
    assert {"third_remark", "stalemate", "eight_eight", "conduct", "knocked"} <= codes  # source
    assert {"pairs_side_players", "correction_window_closed", "opening_assigned_once"} <= codes
    assert {"direct_opponent_first", "bank_no_own", "into_centre"} <= codes  # simulated play


@pytest.mark.parametrize("lang", ["en", "et", "lv"])
def test_every_engine_code_has_words(lang: str) -> None:
    words = _words(lang)
    missing = sorted(c for c in engine_codes() if f"code.{c}" not in words)
    assert not missing, (lang, missing)


@pytest.mark.parametrize("lang", ["et", "lv"])
def test_code_words_are_translated_not_copied(lang: str) -> None:
    english, words = _words("en"), _words(lang)
    assert set(words) == set(english)
    copied = sorted(k for k, v in words.items() if v == english[k])
    assert not copied, (lang, copied)
