"""The faces' catalogues (`pwa/i18n/*.json`) as the server reads them: one loader for every
page, PDF and problem the server words (decision 0130).

A refusal's words are `code.<code>` in `codes.<lang>.json`, the file every face loads too, so
a face and the server say a refusal alike; `{name}` placeholders are filled from the
refusal's `params` the way `t()` in `pwa/js/i18n.js` fills them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import cache

from tableside.settings import PWA_DIR

FACE_LANGUAGES = ("et", "lv", "en", "is")  # every face's languages, in the buttons' order
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


@cache
def catalogue(name: str, lang: str, known: tuple[str, ...] = FACE_LANGUAGES) -> dict[str, str]:
    """One of the faces' files (pwa/i18n/<name>.<lang>.json; "" the shared <lang>.json),
    English for a language not `known`."""
    stem = f"{name}." if name else ""
    path = PWA_DIR / "i18n" / f"{stem}{lang if lang in known else 'en'}.json"
    return json.loads(path.read_text("utf-8"))


def fill(text: str, params: Mapping[str, object]) -> str:
    """`{name}` placeholders filled from `params`; one without a value stays as written."""
    return _PLACEHOLDER.sub(lambda m: str(params[m[1]]) if m[1] in params else m[0], text)


def refusal(lang: str, code: str, params: Mapping[str, object] | None = None) -> str | None:
    """A refusal's words in `lang` (its figures filled in), None for a code without words."""
    said = catalogue("codes", lang).get(f"code.{code}") if code else None
    return fill(said, params or {}) if said is not None else None


def phrase(lang: str, key: str, params: Mapping[str, object] | None = None) -> str | None:
    """A message of the faces' shared catalogue (`<lang>.json`), None where it has none."""
    said = catalogue("", lang).get(key)
    return fill(said, params or {}) if said is not None else None


def plural(lang: str, n: int) -> str:
    """The CLDR plural category of a whole number `n` in `lang` (what `Intl.PluralRules`
    answers in the faces, so a PDF or a CSV counts as a page does): Latvian has zero (0,
    10-20, 30, …), one (1, 21, 31 … but not 11) and other; Icelandic one (1, 21, … not 11)
    and other; Estonian and English one (1) and other."""
    n = abs(n)
    if lang == "lv":
        if n % 10 == 0 or 11 <= n % 100 <= 19:
            return "zero"
        return "one" if n % 10 == 1 else "other"
    if lang == "is":
        return "one" if n % 10 == 1 and n % 100 != 11 else "other"
    return "one" if n == 1 else "other"


def counted(words: Mapping[str, str], key: str, lang: str, n: int, **params: object) -> str:
    """`key` for the count `n` in its plural form where `words` has one (`key.one`,
    `key.zero`, … as the faces' catalogues keep them), else `key`; `{n}` and `params` filled."""
    text = words.get(f"{key}.{plural(lang, n)}", words[key])
    return fill(text, {"n": n, **params})
