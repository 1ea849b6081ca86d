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
