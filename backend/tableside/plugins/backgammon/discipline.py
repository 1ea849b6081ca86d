"""Backgammon on the discipline port (`tableside.match.discipline`): its engine, board, words,
protocol and .mat text, for the registry the composition root builds. Its own slice (this
folder) renders its live feed and keeps its read model; the port is what the house calls."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tableside.disciplines import backgammon
from tableside.disciplines.backgammon.mat import export_mat
from tableside.disciplines.backgammon.state import MatchState
from tableside.disciplines.backgammon.view import board_doc
from tableside.eventlog.receipts import Ending
from tableside.match.discipline import Export
from tableside.plugins.backgammon.exports.bg_pdf import bg_protocol_pdf
from tableside.plugins.backgammon.exports.bg_sheet import bg_sheet
from tableside.plugins.backgammon.exports.bg_words import bg_words
from tableside.plugins.backgammon.receipts import backgammon_endings

_TYPES = frozenset(backgammon.EVENT_TYPES)


def _protocol(records: list, lang: str, head_hash: str) -> bytes:
    sheet = bg_sheet(records)
    sheet.head_hash = head_hash
    return bg_protocol_pdf(sheet, lang)


def _mat(records: list, _lang: str, _head: str) -> bytes:
    return export_mat([r.event for r in records if type(r.event) in _TYPES]).encode()


class Backgammon:
    """Backgammon under the KSI tournament rules."""

    name = "backgammon"
    event_types = backgammon.EVENT_TYPES
    exports = (
        Export("protocol.pdf", "application/pdf", _protocol),
        Export("record.mat", "text/plain; charset=utf-8", _mat),
    )
    own_feed = True  # plugins/backgammon/live_feed.py

    def decode_command(self, body: bytes) -> Any:
        return backgammon.decode_command(body)

    def initial_state(self) -> MatchState:
        return backgammon.initial_state()

    def decide(self, state: MatchState, command: Any) -> tuple[Any, ...]:
        return backgammon.decide(state, command)

    def evolve(self, state: MatchState, event: Any, version: int) -> MatchState:
        return backgammon.evolve(state, event)

    def created(self, state: MatchState) -> bool:
        return state.created

    def view(self, state: MatchState) -> dict[str, Any]:
        return board_doc(state)

    def words(self, lang: str) -> dict[str, str]:
        return bg_words(lang)

    def endings(self, stream: list) -> Iterable[Ending]:
        return backgammon_endings(stream)


BACKGAMMON = Backgammon()
