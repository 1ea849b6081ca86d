"""A match's endings and their signed receipts (#29): each game's end and the match's.

Korona has no event that ends a game: a game ended where folding the stream moves
`games_played` on, the match where `ended` turns true (the engine's rules decide both).
Backgammon stores them (`BgGameEnded`, `BgMatchEnded`). The result is written in no
language, as the receipt signs it (a reader of any language reads it the same): the sides,
the score in games (korona) or points (backgammon), then in brackets korona's match points
or the game's number, backgammon's match length or the game's number and points; the
receipt's `end` says whether a game or the match ended. `eventlog/receipts.py` signs and
checks.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from uuid import UUID

from tableside.disciplines.backgammon import events as bg
from tableside.disciplines.korona.events import MatchCreated
from tableside.eventlog.checkpoint_db import take_async
from tableside.eventlog.checkpoints import Signer
from tableside.eventlog.receipts import Ending, Receipt, issue
from tableside.eventlog.records import RAW_COLUMNS, RawRecord
from tableside.eventlog.source import Record
from tableside.plugins.korona.folding import advance

_STREAM = (
    f"SELECT {RAW_COLUMNS} FROM stored_events WHERE originator_id = $1 ORDER BY originator_version"
)
Decoded = tuple[RawRecord, Any]  # a stored row and its decoded event


def endings(stream: list[Decoded]) -> list[Ending]:
    """Every ending of a match's stream, oldest first (none for a stream that is no match)."""
    first = stream[0][1] if stream else None
    if isinstance(first, bg.MatchCreated):
        return list(_backgammon(stream, first))
    if isinstance(first, MatchCreated):
        return list(_korona(stream))
    return []


def _names(players: Iterable[str]) -> str:
    return " & ".join(players) or "?"


def _korona(stream: list[Decoded]) -> Iterable[Ending]:
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


def _backgammon(stream: list[Decoded], created: bg.MatchCreated) -> Iterable[Ending]:
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


async def stream_of(conn: Any, registry: Any, match_id: UUID) -> list[Decoded]:
    """A match's stored rows with their decoded events, oldest first."""
    rows = await conn.fetch(_STREAM, match_id)
    raws = [RawRecord(*(bytes(v) if isinstance(v, memoryview) else v for v in r)) for r in rows]
    return [(raw, registry.decode(raw.type_name, raw.payload)) for raw in raws]


async def receipts(pool: Any, registry: Any, signer: Signer, match_id: UUID) -> list[Receipt]:
    """The receipts of every ending of a match, oldest first, signed with the checkpoint key;
    a checkpoint covering the last one is signed too (kept in the signer's log beside the
    key), so the store-wide head a receipt names is witnessed outside the database as well."""
    async with pool.acquire() as conn:
        stream = await stream_of(conn, registry, match_id)
    found = endings(stream)
    if found:
        await take_async(pool, signer, covering=found[-1].record.position)
    return [issue(signer.key, str(match_id), ending) for ending in found]


async def printed(state_ctx: Any, base_url: str, match_id: UUID) -> tuple[str, Receipt] | None:
    """(verify link, receipt) of the match's newest ending, for a protocol PDF; None before
    the first ending or on a server without a key (the PDF then prints no receipt)."""
    from tableside.match.exports.receipt_qr import verify_link

    if state_ctx.signing_key is None:
        return None
    found = await receipts(state_ctx.pool, state_ctx.registry, state_ctx.signing_key, match_id)
    return (verify_link(base_url, found[-1]), found[-1]) if found else None
