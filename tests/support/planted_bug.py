"""A server whose competition domain has a bug planted in it: creating a competition whose
guide is named `BUG` raises TypeError inside the domain's decision, as a real bug would.
Everything else is the real app (`tableside.server.asgi.from_env`). For #29's "a bug is a
bug": the answer must be a logged 500, never a 422 ruling.

    uvicorn --factory support.planted_bug:from_env   (tests/ on PYTHONPATH)
"""

from __future__ import annotations

from typing import Any

from litestar import Litestar
from tableside.competition import rules
from tableside.server.asgi import from_env as real_from_env

BUG = "a planted TypeError"


def from_env() -> Litestar:
    """The real app, with the domain's `decide` raising TypeError for the planted guide."""
    decide = rules.decide

    def planted(state: Any, command: Any) -> tuple:
        guide = getattr(command, "guide", None)
        if guide is not None and guide.name == BUG:
            return (*decide(state, command), len(None))  # type: ignore[arg-type]
        return decide(state, command)

    rules.decide = planted
    return real_from_env()
