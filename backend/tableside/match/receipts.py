"""A match's endings and their signed receipts (#29): each game's end and the match's.

Which events end a game or the match, and how the result reads, is the discipline's (its
port's `endings`: korona's `plugins/korona/receipts.py`, backgammon's
`plugins/backgammon/receipts.py`), found by the stream's first event. The result is written in
no language, as the receipt signs it (a reader of any language reads it the same): the sides,
the score in games (korona) or points (backgammon), then in brackets korona's match points
or the game's number, backgammon's match length or the game's number and points; the
receipt's `end` says whether a game or the match ended. `eventlog/receipts.py` signs and
checks.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from tableside.eventlog.checkpoint_db import take_async
from tableside.eventlog.checkpoints import Signer, SigningRefused
from tableside.eventlog.receipts import Ending, Receipt, issue
from tableside.eventlog.records import RAW_COLUMNS, RawRecord, raw_record
from tableside.match.discipline import Disciplines

_STREAM = (
    f"SELECT {RAW_COLUMNS} FROM stored_events WHERE originator_id = $1 ORDER BY originator_version"
)
Decoded = tuple[RawRecord, Any]  # a stored row and its decoded event


def endings(stream: list[Decoded], disciplines: Disciplines) -> list[Ending]:
    """Every ending of a match's stream, oldest first (none for a stream that is no match)."""
    discipline = disciplines.of_event(stream[0][1]) if stream else None
    return list(discipline.endings(stream)) if discipline is not None else []


async def stream_of(conn: Any, registry: Any, match_id: UUID) -> list[Decoded]:
    """A match's stored rows with their decoded events, oldest first."""
    rows = await conn.fetch(_STREAM, match_id)
    raws = [raw_record(r) for r in rows]
    return [(raw, registry.decode(raw.type_name, raw.payload)) for raw in raws]


async def receipts(
    pool: Any, registry: Any, signer: Signer, disciplines: Disciplines, match_id: UUID
) -> list[Receipt]:
    """The receipts of every ending of a match, oldest first, signed with the checkpoint key;
    a checkpoint covering the last one is signed too (kept in the signer's log beside the
    key), so the store-wide head a receipt names is witnessed outside the database as well.
    None is signed while the record is disputed (#41): SigningRefused."""
    if signer.dispute is not None:
        raise SigningRefused(signer.dispute)
    async with pool.acquire() as conn:
        stream = await stream_of(conn, registry, match_id)
    found = endings(stream, disciplines)
    if found:
        await take_async(pool, signer, covering=found[-1].record.position)
    return [issue(signer.key, str(match_id), ending) for ending in found]


async def printed(state_ctx: Any, base_url: str, match_id: UUID) -> tuple[str, Receipt] | None:
    """(verify link, receipt) of the match's newest ending, for a protocol PDF; None before
    the first ending, on a server without a key or while the record is disputed (the PDF
    then prints no receipt)."""
    from tableside.match.exports.receipt_qr import verify_link

    if state_ctx.signing_key is None or state_ctx.signing_key.dispute is not None:
        return None
    ctx = state_ctx
    found = await receipts(ctx.pool, ctx.registry, ctx.signing_key, ctx.disciplines, match_id)
    return (verify_link(base_url, found[-1]), found[-1]) if found else None


_FIRST_OF = "SELECT min(notification_id) FROM stored_events WHERE originator_id = $1"


async def record_notice(ctx: Any, lang: str, match_id: UUID | None = None) -> str | None:
    """What a PDF says above everything else (#50), in the reader's language (the audit
    face's words): the record is disputed (this server vouches for nothing now), or a
    dispute accepted on the record touches this match (at which position, by whom, why);
    None when neither. Without a match (the standings), only the first."""
    from tableside.eventlog.record_notes import touching
    from tableside.match.exports.labels import code_words
    from tableside.web.words import catalogue

    said = catalogue("audit", lang)
    signer = ctx.signing_key
    if signer is not None and signer.dispute is not None:
        why = code_words(lang, f"record.{signer.dispute.code}")
        return said["audit.disputed"].format(why=why)
    if match_id is None:
        return None
    async with ctx.pool.acquire() as conn:
        first = await conn.fetchval(_FIRST_OF, match_id)
        trusted = signer.trusted if signer is not None else None
        accepted = await touching(conn, trusted, first) if first is not None else []
    if not accepted:
        return None
    last = accepted[-1]
    why = code_words(lang, f"record.{last.code}")
    by = last.operator or last.accepted_by
    return said["audit.accepted"].format(p=last.head_position, by=by, why=why)
