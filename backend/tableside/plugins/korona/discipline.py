"""Korona on the discipline port (`tableside.match.discipline`): its fold (`MatchView`: the
engine's state and what the venue knows), commands and who may post them (`commanding`),
view, words and protocol, for the registry the composition root builds. Its own slice (this
folder) renders its live feed and keeps its read models; the port is what the rest of the
house calls, and the match kernel's routes serve its commands at /api/matches."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any
from uuid import UUID

from tableside.disciplines import korona
from tableside.eventlog import EventRegistry
from tableside.eventlog.digest import command_digest
from tableside.eventlog.folder import Folders
from tableside.eventlog.receipts import Ending
from tableside.match.discipline import Creation, Export, Feed, Finder, Tables
from tableside.match.exports.labels import codes
from tableside.plugins.korona import commanding
from tableside.plugins.korona.exports.protocol_pdf import protocol_pdf
from tableside.plugins.korona.exports.sheet import protocol_sheet
from tableside.plugins.korona.finder import FINDER
from tableside.plugins.korona.folding import MatchView, advance
from tableside.plugins.korona.http.dto import CommandRequest, CreateMatchRequest
from tableside.plugins.korona.live_feed import MatchRenderer
from tableside.plugins.korona.projections import all_projections
from tableside.plugins.korona.projections.folder import MATCH_FOLD
from tableside.plugins.korona.projections.runner import ProjectionRunner
from tableside.plugins.korona.receipts import korona_endings
from tableside.plugins.korona.tables import SNAPSHOTS, TABLES


def _protocol(records: list, lang: str, head_hash: str) -> bytes:
    sheet = protocol_sheet(records)
    sheet.events, sheet.head_hash = records[-1].version, head_hash
    return protocol_pdf(sheet, lang)


class Korona:
    """Korona/novuss (EKML, NOVUS08, LV)."""

    name = "korona"
    event_types = korona.EVENT_TYPES
    exports = (Export("protocol.pdf", "application/pdf", _protocol),)
    feed = Feed(MatchRenderer, projected=SNAPSHOTS)  # live_feed.py; its snapshots: tables.py
    address = "/api/matches"
    create_bodies: Mapping[str, type] = MappingProxyType({"": CreateMatchRequest})
    finder: Finder | None = FINDER  # the jury's finder
    tables: Tables | None = TABLES  # the hall's tables its matches hold (tables.py)
    watch_rule: str | None = None  # EKML bars no spectator from a match
    command_body = CommandRequest
    create_roles = ("head_judge", "secretary")
    command_roles = ("head_judge", "secretary", "table_judge")
    meta: Mapping[str, str] = MappingProxyType({})

    def decode_command(self, body: bytes) -> Any:
        return korona.decode_command(body)

    def read_models(self, pool: Any, registry: EventRegistry, folders: Folders) -> list[Any]:
        """Its read models (live, protocol, tables, history) in one runner, on its fold."""
        return [ProjectionRunner(pool, registry, all_projections(), folder=folders.of(MATCH_FOLD))]

    def fold(self, folded: MatchView | None, record: Any) -> MatchView:
        return advance(folded, record)

    def live(self, folded: MatchView) -> bool:
        return folded.state.created

    def decide_on(self, folded: MatchView, command: Any, principal: Any) -> tuple[Any, ...]:
        return commanding.decide_on(folded, command)

    def authorize(self, principal: Any, folded: MatchView, current: Any) -> None:
        commanding.authorize(principal, folded, current)

    async def watchable(self, connection: Any, folded: MatchView) -> None:
        return None  # every korona match is public (watch_rule None)

    def creation(self, body: CreateMatchRequest, lang: str) -> Creation:
        return commanding.creation(body)

    def command_of(self, body: CommandRequest) -> Any:
        return body.command

    def roles_for(self, command: Any) -> tuple[str, ...]:
        return commanding.roles_for(command)

    def command_digest(self, match_id: UUID, command: Any) -> bytes:
        return command_digest("match.command", match_id, command)

    async def prepared(self, request: Any, principal: Any, match_id: UUID, command: Any) -> Any:
        return commanding.confirmed_by_caller(command, principal)

    def view(self, folded: MatchView) -> dict[str, Any]:
        state = folded.state
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
