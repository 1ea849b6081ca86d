"""Korona on the discipline port (`tableside.match.discipline`): its engine, view, words and
protocol, for the registry the composition root builds. Its own slice (this folder) renders
its live feed and keeps its read models; the port is what the rest of the house calls."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tableside.disciplines import korona
from tableside.disciplines.korona.state import MatchState
from tableside.eventlog.receipts import Ending
from tableside.match.discipline import Export
from tableside.match.exports.labels import codes
from tableside.plugins.korona.exports.protocol_pdf import protocol_pdf
from tableside.plugins.korona.exports.sheet import protocol_sheet
from tableside.plugins.korona.receipts import korona_endings


def _protocol(records: list, lang: str, head_hash: str) -> bytes:
    sheet = protocol_sheet(records)
    sheet.events, sheet.head_hash = records[-1].version, head_hash
    return protocol_pdf(sheet, lang)


class Korona:
    """Korona/novuss (EKML, NOVUS08, LV)."""

    name = "korona"
    event_types = korona.EVENT_TYPES
    exports = (Export("protocol.pdf", "application/pdf", _protocol),)
    own_feed = True  # plugins/korona/live_feed.py

    def decode_command(self, body: bytes) -> Any:
        return korona.decode_command(body)

    def initial_state(self) -> MatchState:
        return korona.initial_state()

    def decide(self, state: MatchState, command: Any) -> tuple[Any, ...]:
        return korona.decide(state, command)

    def evolve(self, state: MatchState, event: Any, version: int) -> MatchState:
        return korona.apply(state, event, version)

    def created(self, state: MatchState) -> bool:
        return state.created

    def view(self, state: MatchState) -> dict[str, Any]:
        return {
            "ruleset": state.ruleset,
            "side_a": list(state.side_a),
            "side_b": list(state.side_b),
            "games": state.games,
            "won": list(state.won),
            "game_no": state.game.game_no if state.created else 0,
            "ended": state.ended,
            "winner": state.winner,
            "version": state.version,
        }

    def words(self, lang: str) -> dict[str, str]:
        return codes(lang)

    def endings(self, stream: list) -> Iterable[Ending]:
        return korona_endings(stream)


KORONA = Korona()
