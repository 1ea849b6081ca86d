"""JSON request bodies, read strictly: the one gate every JSON body passes before a handler.

- Bytes that are not JSON (invalid UTF-8, nesting deeper than the decoder's stack, syntax)
  are a 400 (ASVS V1.2/V2.2: input decoded once, safely; never a 500).
- Every string is normalised to NFC and stripped; control characters (C0, DEL, C1, line and
  paragraph separators) and bidirectional-override characters are refused with a 422 naming
  the field (V2.2.1: input validated against an allow-list of what a name can hold).
  Passwords are left exactly as typed (only the hash ever sees them).
- A request struct with an `upcast` (a function of the JSON value) reads a body as written
  before a field was renamed as today's (a client of then is still understood).
- The body is then checked against the handler's request struct with `strict=True`: no
  string→int coercion, unknown fields refused (structs declare `forbid_unknown_fields`), a 422
  naming the field.
"""

from __future__ import annotations

import unicodedata
from typing import Any

import msgspec
from litestar import Request
from litestar.exceptions import ClientException
from litestar.types import Empty

from tableside.web.problems import Unprocessable, coded

# Bidi embeddings, overrides and isolates, and the marks (Trojan Source, CVE-2021-42574).
BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_CONTROL_CATEGORIES = frozenset({"Cc", "Zl", "Zp"})
VERBATIM_KEYS = frozenset({"password"})
# Multi-line documents (a Jellyfish .mat match): line breaks and tabs are their layout.
DOCUMENT_KEYS = frozenset({"text"})
_LAYOUT = frozenset("\n\r\t")


class BodyRefused(Unprocessable):
    """Well-formed JSON whose content cannot be accepted: 422 naming the field."""


def refused(message: str, path: str) -> BodyRefused:
    """A 422 whose `field` is `path` (`$.command.player` → `command.player`)."""
    text = f"{message} - at `{path}`"
    return BodyRefused(text, extra=[{"message": text, "key": path[2:], "source": "body"}])


def decode(body: bytes) -> Any:
    """The JSON value of a body; 400 for anything that is not JSON."""
    try:
        return msgspec.json.decode(body or b"null")
    except UnicodeDecodeError:
        raise ClientException("The body is not UTF-8", extra=coded("body_not_utf8")) from None
    except RecursionError:
        raise ClientException(
            "The JSON body is nested too deeply", extra=coded("body_too_deep")
        ) from None
    except msgspec.DecodeError as exc:
        raise ClientException(
            f"The body is not valid JSON ({exc})", extra=coded("body_not_json")
        ) from None


def bad_character(text: str, allowed: frozenset[str] = frozenset()) -> str | None:
    """The first control or bidi-override character in `text` not `allowed`, as `U+XXXX`."""
    if text.isascii() and text.isprintable():  # most text: no C0, no DEL, nothing beyond
        return None
    for char in text:
        if char in allowed:
            continue
        if char in BIDI or unicodedata.category(char) in _CONTROL_CATEGORIES:
            return f"U+{ord(char):04X}"
    return None


def clean(value: Any, path: str = "$") -> Any:
    """`value` with every string NFC-normalised and stripped; 422 for a forbidden character."""
    if isinstance(value, str):
        text = (value if value.isascii() else unicodedata.normalize("NFC", value)).strip()
        if value and not text:
            raise refused("Blank (whitespace-only) text is not allowed", path)
        document = path.rpartition(".")[2] in DOCUMENT_KEYS
        found = bad_character(text, _LAYOUT if document else frozenset())
        if found:
            raise refused(f"Control or bidi-override character {found} is not allowed", path)
        return text
    if isinstance(value, list):
        return [clean(v, f"{path}[{i}]") for i, v in enumerate(value)]
    if isinstance(value, dict):
        out = {}
        for key, v in value.items():
            here = f"{path}.{clean(key, path)}"
            out[key] = v if key in VERBATIM_KEYS and isinstance(v, str) else clean(v, here)
        return out
    return value


def check(value: Any, target: type) -> None:
    """422 unless `value` is exactly a `target` (no coercion, no unknown fields)."""
    try:
        msgspec.convert(value, target, strict=True)
    except msgspec.ValidationError as exc:
        message, _, where = str(exc).partition(" - at `")
        path = where.rstrip("`") or "$"
        if message.startswith(
            ("Object contains unknown field `", "Object missing required field `")
        ):
            path += "." + message.split("`")[1]  # name the field itself, not its parent
        raise refused(message, path) from None


def _same(value: Any) -> Any:
    return value


def data_type(request: Request) -> type | None:
    """The msgspec struct a handler's `data` is, if it is one."""
    field = request.route_handler.parsed_data_field
    target = field.annotation if field is not None else None
    return target if isinstance(target, type) and issubclass(target, msgspec.Struct) else None


class StrictRequest(Request):
    """Litestar's request with the body gate above in `json()` (what `data` is parsed from)."""

    async def json(self) -> Any:
        if self._json is Empty and self._connection_state.json is Empty:
            body = await self.body()
            try:
                value = clean(decode(body))
            except RecursionError:
                raise ClientException(
                    "The JSON body is nested too deeply", extra=coded("body_too_deep")
                ) from None
            target = data_type(self)
            if target is not None:
                value = getattr(target, "upcast", _same)(value)
                check(value, target)
            self._json = self._connection_state.json = value
        return await super().json()
