"""Reads the judge's tablet needs beside the live board: a ruleset's catalogue, the judge state.

- `GET /api/rulesets/{name}[?fill_silences=none]`: every offence, incident and remark the
  ruleset knows (as a match whose guide leaves LV's/NOVUS08's silences unfilled plays it, with
  `fill_silences=none`; `fill=none` is its older short name),
  each with its consequence and paragraph, so the picker lists exactly what the engine accepts.
- `GET /api/matches/{id}/judge`: what the live document leaves out but the judge acts on: the
  30 s limit per side (EKML §26(4)) and the entry an undo would correct (EKML §12(3)5).
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

import msgspec
from litestar import get
from litestar.datastructures import State
from litestar.exceptions import NotFoundException
from litestar.params import FromPath

from tableside.disciplines.korona import events as ev
from tableside.disciplines.korona.rulesets_variants import RULESETS, UNFILLED
from tableside.disciplines.korona.vocabulary import FillSilences
from tableside.eventlog.source import read_stream
from tableside.plugins.korona.folding import fold_records
from tableside.web.context import context
from tableside.web.problems import coded

Doc = dict[str, Any]
_NOT_UNDONE = (ev.MatchCreated, ev.CorrectionRecorded, ev.ProtocolSigned)
_ALL = 10**9


def catalogue(name: str, fill: FillSilences = "ekml") -> Doc:
    """A ruleset as the judge's picker shows it (codes are translated by the app); `fill`:
    the match's guide fills LV's/NOVUS08's silences from EKML (`ekml`) or leaves them."""
    rs = (RULESETS if fill == "ekml" else UNFILLED).get(name)
    if rs is None:
        raise NotFoundException(f"No ruleset {name}", extra=coded("no_ruleset"))
    outcomes = lambda table: [  # noqa: E731
        {"code": code, "consequence": o.consequence, "rule": o.rule} for code, o in table.items()
    ]
    return {
        "name": rs.name,
        "fill_silences": fill,
        "zone_mm": rs.zone_mm,
        "stroke_offences": outcomes(rs.stroke_offences),
        "incidents": outcomes(rs.incidents),
        "remarks": [{"code": code, "rule": rule} for code, rule in rs.remarks.items()],
        "cite": dict(rs.cite),
        # what stands only once the head judge confirms, with their own sign-in (EKML §22(4))
        "head_judge_confirms": ["unsporting"] if rs.unsporting_needs_confirmation else [],
    }


@get("/api/rulesets/{name:str}", summary="A ruleset's offences, incidents and remarks")
async def get_ruleset(
    name: FromPath[str], fill_silences: FillSilences | None = None, fill: FillSilences = "ekml"
) -> Doc:
    """Public: the catalogue with consequences and paragraphs (404 for an unknown name);
    `?fill_silences=none` (the guide's own word; `?fill=none` its older short name, which
    `fill_silences` overrides): as a match whose guide leaves the ruleset's silences unfilled
    plays it."""
    return catalogue(name, fill_silences or fill)


def _undo_target(window: tuple) -> Doc | None:
    """The last entry still in force that the table judge may withdraw."""
    for version, event in reversed(window):
        if type(event) in ev.ENTRY_TYPES and type(event) not in _NOT_UNDONE:
            return {
                "version": version,
                "type": type(event).__name__,
                "event": msgspec.to_builtins(event),
            }
    return None


@get("/api/matches/{match_id:uuid}/judge", summary="Time limits and the undo target of a match")
async def get_judge_state(state: State, match_id: FromPath[UUID]) -> Doc:
    """Folded from the events, so it is exact at `version` (no read-model lag)."""
    ctx = context(state)
    async with ctx.pool.acquire() as conn:
        view = fold_records(await read_stream(conn, ctx.registry, match_id, _ALL))
    if view is None or not view.state.created:
        raise NotFoundException(f"No match {match_id}", extra=coded("no_match"))
    s = view.state
    return {
        "match_id": str(match_id),
        "version": view.version,
        "ruleset": s.ruleset,
        "time_limit": list(s.time_limit),
        "slow_remarks": list(s.slow_remarks),
        "signed": s.signed,
        "undo": None if s.signed else _undo_target(s.window),
    }


JUDGE_ROUTES = [get_ruleset, get_judge_state]
