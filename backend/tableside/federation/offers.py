"""A push's body read into an `Offer`: the venue's store as the JSONL it exports
(`eventlog/jsonl.py`, format `tableside-events/2`: a header with `stream_id` null, `anchor`
the venue's store-wide hash at `after`, `checkpoint` its newest stored checkpoint and
`checkpoints` those the batch covers; then one line per event, both chains' hashes on each).
`after` and `head` come as query parameters (positions, never secrets)."""

from __future__ import annotations

from litestar.exceptions import ClientException

from tableside.eventlog.chain import GENESIS
from tableside.eventlog.jsonl import ExportError, read_export
from tableside.federation.config import MAX_BATCH_EVENTS
from tableside.federation.judge import Offer
from tableside.web.problems import coded


def offer_from(body: bytes, after: int, head: int) -> Offer:
    """The offer a push carries; 400 (coded) when the body is not a batch of a store."""
    try:
        header, lines = read_export(body.splitlines())
        records = []
        for record in lines:
            records.append(record)
            if len(records) > MAX_BATCH_EVENTS:
                raise _refused("federation_batch_too_large", f"at most {MAX_BATCH_EVENTS}")
        anchor = bytes.fromhex(header.anchor) if header.anchor else GENESIS
    except (ExportError, ValueError) as exc:
        raise _refused("federation_not_a_batch", str(exc)) from None
    if header.stream_id is not None or header.events != len(records) or len(anchor) != 32:
        raise _refused("federation_not_a_batch", "a batch names no stream, counts its events")
    marks = [*header.checkpoints, *([header.checkpoint] if header.checkpoint else [])]
    signed = header.checkpoint.position if header.checkpoint else 0
    return Offer(after, anchor, head, records, marks, signed)


def _refused(code: str, detail: str) -> ClientException:
    return ClientException(
        f"Not a batch of a venue's store: {detail}", extra=coded(code, detail=detail)
    )
