"""A match's signed receipts (#29): `GET /api/receipts/{id}` (JSON) and `/receipt/{id}` (a
page for people: the newest receipt's QR code and text, every ending below it, in the reader's
language: `?lang=`, else the browser's Accept-Language). Public, as a result is: the receipts
hold nothing of devices or recorders."""

from __future__ import annotations

from html import escape
from typing import Any
from uuid import UUID

import msgspec
from litestar import Request, Response, get
from litestar.datastructures import State
from litestar.exceptions import HTTPException, NotFoundException
from litestar.params import FromPath

from tableside.eventlog.checkpoints import SigningRefused
from tableside.eventlog.receipts import Receipt
from tableside.match.exports import receipt_qr
from tableside.match.exports.labels import face_words
from tableside.match.receipts import receipts
from tableside.web.context import context
from tableside.web.disputed import disputed
from tableside.web.downloads import FaceLanguage
from tableside.web.problems import coded, language
from tableside.web.transport import public_base


async def match_receipts(state: State, match_id: UUID) -> list[Receipt]:
    """Every ending's receipt, oldest first; 404 before the first ending, 503 without a key,
    409 `record_disputed` while the store no longer yields a head the key signed (#41)."""
    ctx = context(state)
    if ctx.signing_key is None:
        raise HTTPException(
            status_code=503, detail="This server has no signing key", extra=coded("no_signing_key")
        )
    try:
        found = await receipts(ctx.pool, ctx.registry, ctx.signing_key, ctx.disciplines, match_id)
    except SigningRefused as refused:
        raise disputed(refused.dispute) from None
    if not found:
        raise NotFoundException(
            f"No game of match {match_id} has ended yet", extra=coded("no_game_ended")
        )
    return found


@get("/api/receipts/{match_id:uuid}", summary="A match's signed receipts")
async def get_receipts(request: Request, state: State, match_id: FromPath[UUID]) -> dict[str, Any]:
    """The newest receipt (`receipt`), every ending's (`receipts`, oldest first), the verify
    link carrying the newest and its QR code (`qr_svg`, a data URI). Each verifies with the
    federation's public key alone (`tableside audit verify --receipt`, the PWA's /verify)."""
    found = await match_receipts(state, match_id)
    link = receipt_qr.verify_link(public_base(request), found[-1])
    return {
        "receipt": msgspec.to_builtins(found[-1]),
        "receipts": msgspec.to_builtins(found),
        "verify_url": link,
        "qr_svg": receipt_qr.svg_data_uri(link),
    }


@get("/receipt/{match_id:uuid}", include_in_schema=False)
async def receipt_page(
    request: Request,
    state: State,
    match_id: FromPath[UUID],
    lang: FaceLanguage | None = None,  # the four a receipt is printed in
) -> Response[str]:
    """The receipt for people: the newest one's QR code and text, then the earlier endings'."""
    found = await match_receipts(state, match_id)
    lang = lang or language(request)
    words = face_words(lang)
    link = receipt_qr.verify_link(public_base(request), found[-1])
    earlier = [_fields(r, lang) for r in reversed(found[:-1])]
    body = "".join(
        [
            f"<h1>{escape(words['receipt.title'])}</h1>",
            f'<p><a href="{escape(link)}">{receipt_qr.svg_inline(link)}</a></p>',
            f"<p>{escape(words['receipt.scan'])}</p>",
            _fields(found[-1], lang),
            *([f"<h2>{escape(words['receipt.earlier'])}</h2>", *earlier] if earlier else []),
            f'<p><a href="/api/receipts/{escape(str(match_id))}">JSON</a></p>',
        ]
    )
    page = _PAGE.format(lang=lang, title=escape(words["receipt.title"]), body=body)
    return Response(page, media_type="text/html", headers={"Content-Language": lang})


def _fields(receipt: Receipt, lang: str) -> str:
    rows = "".join(
        f"<dt>{escape(label)}</dt><dd>{escape(value)}</dd>"
        for label, value in receipt_qr.lines(receipt, lang)
    )
    return f'<dl class="receipt">{rows}</dl>'


_PAGE = """<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title><link rel="stylesheet" href="/css/verify.css"></head>
<body><main>{body}</main></body></html>"""

RECEIPT_ROUTES = [get_receipts, receipt_page]
