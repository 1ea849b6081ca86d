"""A request cut by shutdown answers 503 with Retry-After (issue 46), not uvicorn's 500.

SIGTERM lets running requests finish for TABLESIDE_SHUTDOWN_SECONDS, then uvicorn cancels
them; `TablesideApp` catches that cancellation at the top of the app and answers here.
"""

from __future__ import annotations

import logging

import msgspec

from tableside.web.availability import RETRY_AFTER
from tableside.web.problems import MEDIA_TYPE
from tableside.web.security_headers import COMMON, STRICT_CSP

log = logging.getLogger(__name__)


async def cut_response(scope, send) -> bool:
    """Answer a request cut by shutdown (uvicorn cancels what runs past
    TABLESIDE_SHUTDOWN_SECONDS) with 503 + Retry-After, not the server's 500 and a traceback
    (issue 46): its transaction was rolled back, nothing is stored, another server (or this
    one, restarted) takes the retry. False when its answer had already begun."""
    body = msgspec.json.encode(
        {
            "type": "about:blank",
            "title": "Server shutting down",
            "status": 503,
            "detail": "The server stopped before this request finished; nothing was stored. "
            "Try again.",
        }
    )
    headers = [
        (b"content-type", MEDIA_TYPE.encode()),
        (b"content-length", str(len(body)).encode()),
        (b"retry-after", RETRY_AFTER.encode()),
        (b"connection", b"close"),
        (b"content-security-policy", STRICT_CSP.encode()),
        *COMMON,
    ]
    try:
        await send({"type": "http.response.start", "status": 503, "headers": headers})
        await send({"type": "http.response.body", "body": body})
    except Exception:  # its answer had begun, or the client is gone: nothing more to say
        return False
    log.warning("cut by shutdown: %s %s answered 503", scope.get("method"), scope.get("path"))
    return True
