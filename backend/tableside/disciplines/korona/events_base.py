"""The base of every event (see events.py for the catalogue)."""

from __future__ import annotations

import msgspec


class Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """Base of every event; `rule` cites the paragraph that decided it ("" for plain facts)."""

    rule: str = ""
