"""Backgammon's endings for the match receipts (#29, `match/receipts.py`): the stored
`BgGameEnded` and `BgMatchEnded`, written in no language: the sides, the score in points,
then in brackets the match length or the game's number and points."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tableside.disciplines.backgammon import events as bg
from tableside.eventlog.receipts import Ending
from tableside.eventlog.records import RawRecord


def backgammon_endings(stream: list[tuple[RawRecord, Any]]) -> Iterable[Ending]:
    """Every game's and the match's end, oldest first."""
    return _backgammon(stream, stream[0][1])


def _backgammon(stream: list[tuple[RawRecord, Any]], created: bg.MatchCreated) -> Iterable[Ending]:
    sides = f"{created.player_a} – {created.player_b}"
    games = 0
    for raw, event in stream:
        if isinstance(event, bg.GameEnded):
            games += 1
            score = f"{event.score[0]}:{event.score[1]}"
            yield Ending("game", f"{sides} {score} (#{games}, +{event.points})", raw)
        elif isinstance(event, bg.MatchEnded):
            score = f"{event.score[0]}:{event.score[1]}"
            yield Ending("match", f"{sides} {score} ({created.length})", raw)
