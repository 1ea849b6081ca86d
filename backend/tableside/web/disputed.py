"""What a face is told while the record is disputed (#41): a 409 problem with the code
`record_disputed` (every face translates it) and why, as `standing.Dispute` says it; and a
witness file refused (422 `witness_refused`)."""

from __future__ import annotations

from typing import Any

from litestar.exceptions import HTTPException

CODE = "record_disputed"


def disputed(dispute: Any) -> HTTPException:
    """The refusal of anything this server would sign (a receipt) while disputed."""
    extra = {"code": CODE, "dispute": dispute.code, "reason": dispute.reason}
    return HTTPException(status_code=409, detail="Record disputed", extra=extra)


def standing(dispute: Any) -> dict[str, object]:
    """`/health`'s `record`: disputed (with the code and why) or ok."""
    if dispute is None:
        return {"state": "ok"}
    return {"state": "disputed", "code": dispute.code, "reason": dispute.reason}


def witness_refused(reason: str) -> HTTPException:
    """A witness file the console collected that is not the venue's checkpoints (422)."""
    extra = {"code": "witness_refused", "reason": reason}
    return HTTPException(status_code=422, detail="Witness refused", extra=extra)
