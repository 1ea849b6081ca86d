"""A file the browser saves rather than shows: one way to answer every download."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from litestar import Response
from litestar.params import Parameter

# The language of a printed download (the faces' three).
Language = Annotated[Literal["et", "lv", "en"], Parameter(description="language")]
# A download or page every face links in its reader's language, Icelandic included (a
# backgammon record, a receipt, a competition's standings, a korona protocol, /setup).
FaceLanguage = Annotated[
    Literal["en", "is", "et", "lv"], Parameter(description="language (Icelandic: is)")
]


def attachment(body: bytes, media_type: str, filename: str) -> Response[bytes]:
    """`body` as `filename` (Content-Disposition: attachment), never cached on the way."""
    return Response(
        body,
        media_type=media_type,
        headers={
            "Content-Disposition": f'attachment; filename="{filename}"',
            "Cache-Control": "no-store",
        },
    )


DISPUTED_HEADER = "Tableside-Record"


def said_disputed(response: Response[bytes], state: Any) -> Response[bytes]:
    """A download from a disputed store says so (#50): `Tableside-Record: disputed; <code>`
    (a results file Swiss Master reads carries no line of ours; a record's JSONL neither)."""
    signer = state.tableside.signing_key
    dispute = signer.dispute if signer is not None else None
    if dispute is not None:
        response.headers[DISPUTED_HEADER] = f"disputed; {dispute.code}"
    return response
