"""What a reader must never see (issue 14 point 5): a message key instead of its words, one of
the engine's codes, a stored event type, a raw id, or English on an Estonian or Latvian page.

`raw_codes(text, lang)` lists what it found in a page's or a PDF's text; the crawler over the
faces (tests/browser/test_words_everywhere.py) and the protocol PDF test share it.
"""

from __future__ import annotations

import json
import re
from functools import cache

from tableside.settings import PWA_DIR

SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")  # direct_opponent_first
DOTTED = re.compile(r"\b[a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+\b")  # ev.FoulCommitted, judge.undo
CAMEL = re.compile(r"\b[A-Z][a-z]+(?:[A-Z][a-z]+)+\b")  # PenaltyAwarded
UUID = re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b")
WORD = re.compile(r"[^\W\d_]{3,}")
PLACEHOLDER = re.compile(r"\{\w+\}")
HEX = re.compile(r"\b(?=[0-9a-f]*\d)[0-9a-f]{6,}\b")  # a hash, or a piece of one wrapped


def _values(lang: str) -> list[str]:
    values: list[str] = []
    for path in (PWA_DIR / "i18n").glob("*.json"):
        if path.stem == lang or path.stem.endswith(f".{lang}"):
            values += json.loads(path.read_text("utf-8")).values()
    return values


def _words(texts: list[str]) -> set[str]:
    return {w.lower() for text in texts for w in WORD.findall(PLACEHOLDER.sub(" ", text))}


@cache
def english_only(lang: str = "et") -> frozenset[str]:
    """Words of our English messages that no message of the page's language uses (Estonian
    and Latvian share theirs, as before; Icelandic has its own): on such a page, one of them
    is English that escaped translation."""
    others = ("et", "lv") if lang in ("et", "lv") else (lang,)
    return frozenset(_words(_values("en")) - _words([v for o in others for v in _values(o)]))


@cache
def message_keys() -> frozenset[str]:
    """Every key of every message catalogue (a key on a page is a missing translation)."""
    keys: set[str] = set()
    for path in (PWA_DIR / "i18n").glob("*.json"):
        keys |= set(json.loads(path.read_text("utf-8")))
    return frozenset(keys)


def raw_codes(text: str, lang: str, ids: frozenset[str] = frozenset()) -> list[str]:
    """What in `text` is not words for a reader of `lang` (empty when all is well); `ids` are
    the identifiers and names the page is meant to show as such (a protocol names its match's
    id; a competition's name is what the TD typed)."""
    found = SNAKE.findall(text) + CAMEL.findall(text)
    found += [u for u in UUID.findall(text) if u not in ids]
    keys = message_keys()
    found += [k for k in DOTTED.findall(text) if k in keys or k.startswith("code.")]
    if lang != "en":
        english, named = english_only(lang), _words(list(ids))
        words = WORD.findall(HEX.sub(" ", text))  # a hash's run of a-f letters reads no word
        found += [f"English: {w}" for w in words if w.lower() in english - named]
    return sorted(set(found))
