"""Korona's endings for the match receipts (#29, `match/receipts.py`): korona has no event
that ends a game: a game ended where folding the stream moves `games_played` on, the match
where `ended` turns true (the engine's rules decide both). Written in no language: the
sides, the score in games, then in brackets the match points or the game's number."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tableside.eventlog.receipts import Ending
from tableside.eventlog.records import RawRecord
from tableside.eventlog.source import Record
from tableside.plugins.korona.folding import advance


def _names(players: Iterable[str]) -> str:
    return " & ".join(players) or "?"


def korona_endings(stream: list[tuple[RawRecord, Any]]) -> Iterable[Ending]:
    """Every game's and the match's end, oldest first."""
    view = None
    for raw, event in stream:
        before = view.state if view else None
        view = advance(view, _record(raw, event))
        s = view.state
        sides = f"{_names(s.side_a)} – {_names(s.side_b)} {s.won[0]}:{s.won[1]}"
        if s.ended and not (before and before.ended):
            points = ":".join(f"{p:g}" for p in s.result_points)
            yield Ending("match", f"{sides} ({points})", raw)
        elif before and s.games_played > before.games_played:
            yield Ending("game", f"{sides} (#{s.games_played})", raw)


def _record(raw: RawRecord, event: Any) -> Record:
    return Record(raw.stream_id, raw.version, raw.position, raw.type_name, event, raw.recorded_at)
