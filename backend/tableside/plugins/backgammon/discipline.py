"""Backgammon on the discipline port (`tableside.match.discipline`): its stream's fold
(`stream.Played`), its commands and who may post them (`commanding`, `http/access.py`), its
board, words, protocol and .mat text, for the registry the composition root builds. Its own
slice (this folder) renders its live feed and keeps its read model; the port is what the
house calls, and the match kernel's routes serve its commands at /api/backgammon/matches."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any
from uuid import UUID

from tableside.disciplines import backgammon
from tableside.disciplines.backgammon.mat import export_mat
from tableside.disciplines.backgammon.view import board_doc
from tableside.eventlog import EventRegistry
from tableside.eventlog.digest import command_digest
from tableside.eventlog.folder import Folders
from tableside.eventlog.receipts import Ending
from tableside.match.discipline import Creation, Export, Feed, Finder, Tables
from tableside.plugins.backgammon import commanding, stream
from tableside.plugins.backgammon.commanding import BgCommandRequest, CreateRequest, ImportRequest
from tableside.plugins.backgammon.exports.bg_pdf import bg_protocol_pdf
from tableside.plugins.backgammon.exports.bg_sheet import bg_sheet
from tableside.plugins.backgammon.exports.bg_words import bg_words
from tableside.plugins.backgammon.finder import FINDER
from tableside.plugins.backgammon.folding import BG_FOLD
from tableside.plugins.backgammon.http import access
from tableside.plugins.backgammon.live_feed import HALL, BgRenderer, bg_snapshot
from tableside.plugins.backgammon.projections.matches import backgammon_folds
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
    feed = Feed(BgRenderer, bg_snapshot, HALL)  # plugins/backgammon/live_feed.py
    address = "/api/backgammon/matches"
    create_bodies: Mapping[str, type] = MappingProxyType(
        {"": CreateRequest, "/import": ImportRequest}
    )
    finder: Finder | None = FINDER  # the jury's finder
    tables: Tables | None = None  # the hall reads its tables through its flow (on_tables)
    watch_rule: str | None = "KSI 1.6.4"  # spectators barred at a player's request
    command_body = BgCommandRequest
    create_roles = access.STAFF
    command_roles = (*access.STAFF, access.TABLE_DEVICE)
    meta: Mapping[str, str] = MappingProxyType({"discipline": "backgammon"})

    def decode_command(self, body: bytes) -> Any:
        return backgammon.decode_command(body)

    def read_models(self, pool: Any, registry: EventRegistry, folders: Folders) -> list[Any]:
        """Its read model (`backgammon_matches`), on its fold."""
        return [backgammon_folds(pool, registry, folder=folders.of(BG_FOLD))]

    def fold(self, folded: stream.Played | None, record: Any) -> stream.Played:
        return stream.fold(folded, record)

    def live(self, folded: stream.Played) -> bool:
        return folded.state.created

    def view(self, folded: stream.Played) -> dict[str, Any]:
        return board_doc(folded.state)

    def decide_on(self, folded: stream.Played, command: Any, principal: Any) -> tuple[Any, ...]:
        return commanding.decide_on(folded, command, principal)

    def authorize(self, principal: Any, folded: stream.Played, current: Any) -> None:
        access.authorizer(principal)(folded.state)

    async def watchable(self, connection: Any, folded: stream.Played) -> None:
        await access.watchable(connection, folded.state)  # KSI 1.6.4

    def creation(self, body: CreateRequest | ImportRequest, lang: str) -> Creation:
        return commanding.creation(body, lang)

    def command_of(self, body: BgCommandRequest) -> Any:
        return body.command

    def roles_for(self, command: Any) -> tuple[str, ...]:
        return access.roles_for(command)

    def command_digest(self, match_id: UUID, command: Any) -> bytes:
        return command_digest("backgammon.command", match_id, command)

    async def prepared(self, request: Any, principal: Any, match_id: UUID, command: Any) -> Any:
        return await commanding.prepared(request, principal, match_id, command)

    def words(self, lang: str) -> dict[str, str]:
        return bg_words(lang)

    def endings(self, stream: list) -> Iterable[Ending]:
        return backgammon_endings(stream)


BACKGAMMON = Backgammon()
