"""The one event registry of the service: every discipline's events, the venue's, the
competition's and the record's own (a dispute accepted, #41). Composed in
`plugins/house.py` (decision 0173), which the federation reads too; named here for the venue's
composition root."""

from __future__ import annotations

from tableside.plugins.house import build_registry

__all__ = ["build_registry"]
