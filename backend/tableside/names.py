"""Names that are what they look like (issue 46): every person's and team's name as stored.

`person_name` holds a name to the PRECIS nickname profile (RFC 8266, `precis-i18n`): no control,
format, private-use or unassigned character, no default-ignorable one (zero-width spaces and
joiners, soft hyphen, variation selectors, tags), spaces mapped to U+0020, trimmed and never
doubled, compatibility forms folded (NFKC, itself in NFC). Past the profile, characters that
draw nothing (a braille blank, the Hangul fillers) are refused too: a name that cannot be seen
cannot be told apart. A refusal names the character (`U+200B ZERO WIDTH SPACE`).

`skeleton` is the confusable skeleton of Unicode UTS #39 §4 (from the confusables data of
`confusable-homoglyphs`): "Mari Tamm" in Latin letters and with a Cyrillic "а" or "Т" have the
same one, so the second is refused within one event (`refuse_lookalike`). Two identical names
are two people of one name, and are left to the rules that already judge them.

Pure: no I/O past reading the packaged confusables data once. Like `rule_error`, the ground:
the engines and the competition's rules call it.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterable
from functools import cache
from importlib import resources

from precis_i18n import get_profile

from tableside.rule_error import RuleError

PROFILE = "RFC 8266 §2"  # the nickname profile
CONFUSABLE = "UTS #39 §4"  # confusable detection: the skeleton
_NICKNAME = get_profile("NicknameCasePreserved")
_UNSEEN_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cn", "Cs", "Zl", "Zp"})
# Letters and symbols the profile allows that draw nothing on the screen.
_BLANK = frozenset("\u2800\u3164\u115f\u1160\uffa0\U0001d159")


class NameRefused(RuleError):
    """A name refused (422): its `code` for the faces, `params` (the character, the look-alike)
    for their words and the problem's body."""

    def __init__(self, rule: str, message: str, field: str, code: str, **params: str) -> None:
        super().__init__(rule, message, field, code, params)


def person_name(raw: str, field: str) -> str:
    """`raw` as stored: the nickname profile's form; NameRefused naming what is wrong."""
    for char in raw:
        if _unseen(char):
            raise _refused_character(char, field)
    try:
        name = _NICKNAME.enforce(raw)
    except UnicodeEncodeError as exc:
        if exc.reason.endswith("/empty"):
            message = "a name needs a visible character"
            raise NameRefused(PROFILE, message, field, "name_empty") from None
        raise _refused_character(_original(raw, exc.object[exc.start]), field) from None
    if any(_unseen(char) for char in name):  # a compatibility form folded into one
        raise _refused_character(next(c for c in name if _unseen(c)), field)
    return name


def person_names(raws: Iterable[str], field: str) -> tuple[str, ...]:
    """Each of `raws` as `person_name` stores it."""
    return tuple(person_name(raw, field) for raw in raws)


def _unseen(char: str) -> bool:
    return unicodedata.category(char) in _UNSEEN_CATEGORIES or char in _BLANK


def _original(raw: str, mapped: str) -> str:
    """The character of `raw` that the profile's mapping turned into `mapped`."""
    return next((c for c in raw if mapped in unicodedata.normalize("NFKC", c)), mapped)


def spelled(char: str) -> str:
    """`U+200B ZERO WIDTH SPACE`: a character as a reader can find it."""
    return f"U+{ord(char):04X} {unicodedata.name(char, 'unnamed character')}"


def _refused_character(char: str, field: str) -> NameRefused:
    said = spelled(char)
    message = f"a name may not hold {said}: it cannot be seen or is not allowed in a name"
    return NameRefused(PROFILE, message, field, "name_character", character=said)


def skeleton(name: str) -> str:
    """The UTS #39 skeleton: each character replaced by its confusables prototype, in NFD."""
    prototype = _prototypes()
    decomposed = unicodedata.normalize("NFD", name)
    return unicodedata.normalize("NFD", "".join(prototype.get(c, c) for c in decomposed))


def refuse_lookalike(name: str, others: Iterable[str], field: str) -> None:
    """NameRefused when `name` looks like one of `others` without being it (UTS #39 §4)."""
    mine = skeleton(name)
    for other in others:
        if other != name and skeleton(other) == mine:
            message = f"{name!r} looks the same as {other!r}, already in this event"
            raise NameRefused(CONFUSABLE, message, field, "name_lookalike", name=name, other=other)


@cache
def _prototypes() -> dict[str, str]:
    """Every confusable character → one prototype of its set (the longest member: "m" → "rn",
    as UTS #39 maps it), from `confusable-homoglyphs`' copy of confusables.txt."""
    data = resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8")
    parent: dict[str, str] = {}

    def root(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for char, glyphs in json.loads(data).items():
        for glyph in glyphs:
            parent[root(glyph["c"])] = root(char)
    sets: dict[str, list[str]] = {}
    for member in list(parent):
        sets.setdefault(root(member), []).append(member)
    mapping: dict[str, str] = {}
    for members in sets.values():
        chosen = min(members, key=lambda m: (-len(m), not m.isascii(), m))
        mapping.update((m, chosen) for m in members if len(m) == 1 and m != chosen)
    return mapping
