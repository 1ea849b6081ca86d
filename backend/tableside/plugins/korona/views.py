"""JSON documents of a MatchView: the live board, the protocol; deterministic for rebuilds."""

from __future__ import annotations

from collections import defaultdict
from itertools import chain
from typing import Any

import msgspec

from tableside.disciplines.korona import events as ev
from tableside.plugins.korona.folding import Entries, MatchView

_PENALTIES = (
    ev.FoulCommitted,
    ev.PenaltyAwarded,
    ev.PenaltyPuckPlaced,
    ev.DebtRecorded,
    ev.DebtCancelled,
    ev.NextTurnForfeited,
    ev.PlayerRemoved,
    ev.TimeLimitImposed,
)


def status(view: MatchView) -> str:
    """scheduled → called → playing → ended → signed; or abandoned, given up unfinished."""
    s = view.state
    if view.abandoned:
        return "abandoned"
    if s.signed:
        return "signed"
    if s.ended:
        return "ended"
    if s.protocol_seats:
        return "playing"
    return "called" if view.called else "scheduled"


def _header(view: MatchView) -> dict[str, Any]:
    s = view.state
    return {
        "match_id": str(view.match_id),
        "table": view.table,
        "competition_id": view.competition_id or None,
        "status": status(view),
        "ruleset": s.ruleset,
        "format": s.fmt,
        "side_a": list(s.side_a),
        "side_b": list(s.side_b),
        "games": s.games,
        "play_all": s.play_all,
        "fill_silences": s.fill_silences,
        "opening": s.opening,
        "version": view.version,
        "position": view.position,
        "scheduled_position": view.scheduled_position,
        "updated_at": view.updated_at.isoformat() if view.updated_at else None,
        **({"abandoned": view.abandoned} if view.abandoned else {}),
        **({"won_by": view.won_by} if view.won_by else {}),
        **({"board": view.board} if view.board else {}),
    }


def live_doc(view: MatchView) -> dict[str, Any]:
    """What a live board shows: score, game, turn, pucks, debts, remarks."""
    s, g = view.state, view.state.game
    game = {
        "game_no": g.game_no,
        "seats": list(g.seats),
        "opener": g.opener,
        "turn": g.turn,
        "started": g.started,
        "over": g.over,
        "strokes": g.strokes,
        "stalemate": g.stalemate,  # successive centre-only untouched turns (EKML §27(6))
        "pucks": [
            {"on_board": p.on_board, "pocketed": p.pocketed, "debt": p.debt, "placed": p.placed}
            for p in g.pucks
        ],
    }
    return {
        **_header(view),
        "won": list(s.won),
        "games_played": s.games_played,
        "remarks": list(s.remarks),
        "yellow": list(s.yellow),
        "removed": list(s.removed),
        "winner": s.winner or None,
        "result_points": list(s.result_points),
        "game": game if g.game_no else None,
    }


def _item(version: int, event: object) -> dict[str, Any]:
    data = msgspec.to_builtins(event)
    data["version"] = version
    return data


_PROTOCOL_TYPES = frozenset(
    (
        ev.OpeningShotAssigned,
        ev.MatchEnded,
        ev.GameEnded,
        ev.GameAnnulled,
        ev.RemainingGamesLost,
        ev.RemarkGiven,
        ev.WarningGiven,
        ev.IncidentReported,
        ev.CorrectionRecorded,
        ev.ProtocolSigned,
    )
)


_WANTED = _PROTOCOL_TYPES | frozenset(_PENALTIES)


def _by_type(entries: Entries) -> defaultdict:
    """The protocol's entries grouped by type: (index, version, event) each. The list keeps
    what it matched, so a match's next event costs one step, not a walk of every stroke."""
    found: defaultdict = defaultdict(list)
    for i, version, event in entries.matching(_WANTED):
        found[type(event)].append((i, version, event))
    return found


def protocol_doc(view: MatchView) -> dict[str, Any]:
    """The match protocol after corrections (EKML §16): games, sanctions, signatures."""
    s, found = view.state, _by_type(view.effective)
    pick = lambda *types: [  # noqa: E731  (entries of these types, in stored order)
        _item(v, e) for _, v, e in sorted(chain.from_iterable(found[t] for t in types))
    ]
    opening = pick(ev.OpeningShotAssigned)
    ended = pick(ev.MatchEnded)
    return {
        **_header(view),
        "points": list(s.points),
        "opening": opening[-1] if opening else None,
        "game_results": pick(ev.GameEnded, ev.GameAnnulled, ev.RemainingGamesLost),
        "won": list(s.won),
        "games_played": s.games_played,
        "result": ended[-1] if ended else None,
        "remarks": pick(ev.RemarkGiven),
        "warnings": pick(ev.WarningGiven),
        "penalties": pick(*_PENALTIES),
        "incidents": pick(ev.IncidentReported),
        "corrections": pick(ev.CorrectionRecorded),
        "signatures": pick(ev.ProtocolSigned),
        "signed": s.signed,
        "winner": s.winner or None,
        "result_points": list(s.result_points),
    }
