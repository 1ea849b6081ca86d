"""One plain-language line per stored match event, for the match page and its log."""

from __future__ import annotations

from tableside.disciplines.korona import events as ev
from tableside.match.events import MatchAbandoned, MatchScheduled, PlayersCalled


def _stroke(e: ev.StrokeRecorded) -> str:
    f = e.facts
    pocketed = f"pocketed {f.own_pocketed}" if f.own_pocketed else "no own puck pocketed"
    extra = f", opponent's {f.opponent_pocketed}" if f.opponent_pocketed else ""
    foul = "" if e.legal else " (foul)"
    return f"{e.player}: {pocketed}{extra}{foul}"


_TEXT = {
    MatchScheduled: lambda e: f"match put on table {e.table}",
    PlayersCalled: lambda e: f"players called to table {e.table}",
    MatchAbandoned: lambda e: f"match abandoned: {e.reason}" + (f" ({e.note})" if e.note else ""),
    ev.MatchCreated: lambda e: f"match created: {' & '.join(e.side_a)} v {' & '.join(e.side_b)}",
    ev.OpeningShotAssigned: lambda e: f"side {e.side} opens ({e.method})",
    ev.StrokeRecorded: _stroke,
    ev.IncidentReported: lambda e: f"{e.kind}: {e.code} {e.player}".rstrip(),
    ev.CorrectionRecorded: lambda e: f"correction of entry {e.corrects_version} by {e.by}",
    ev.ProtocolSigned: lambda e: f"protocol signed by {e.judge}",
    ev.GameSetUp: lambda e: f"game {e.game_no} set up, {e.opener} opens",
    ev.TurnKept: lambda e: f"{e.player} keeps the turn",
    ev.TurnPassed: lambda e: f"turn passes from {e.player} to {e.to}",
    ev.RemarkGiven: lambda e: f"remark to {e.player}: {e.reason} ({e.count})",
    ev.WarningGiven: lambda e: f"{e.card} card to {e.player}",
    ev.GameEnded: lambda e: f"game {e.game_no} won by side {e.winner} ({e.reason})",
    ev.MatchEnded: lambda e: f"match ended {e.games_a}:{e.games_b}, winner {e.winner or 'none'}",
}


def line(event: object) -> tuple[str, str]:
    """(rule, text) for one event; unknown kinds fall back to their type name."""
    text = _TEXT.get(type(event))
    rule = getattr(event, "rule", "") or ""
    if text is None:
        plain = _plain(event).items()
        fields = ", ".join(f"{k}={v}" for k, v in plain if k not in ("rule", "type"))
        return rule, f"{type(event).__name__}: {fields}"
    return rule, text(event)


def _plain(event: object) -> dict:
    return {f: getattr(event, f) for f in getattr(event, "__struct_fields__", ())}
