"""RFC 9457 problem details for every error response (application/problem+json)."""

from __future__ import annotations

import json
import logging
import traceback
from typing import Any

from litestar import Request, Response
from litestar.exceptions import HTTPException, ValidationException

from tableside.eventlog import CommandReused, VersionConflict
from tableside.rule_error import RuleError

log = logging.getLogger(__name__)
MEDIA_TYPE = "application/problem+json"


class Unprocessable(ValidationException):
    """Well-formed, but refused for its content: a 422 naming the field (`extra` keys)."""

    status_code = 422


def problem(
    status: int, title: str, detail: str = "", headers: dict[str, str] | None = None, **extra: Any
) -> Response[dict[str, Any]]:
    """A problem+json response; `extra` members go beside type/title/status/detail."""
    body = {"type": "about:blank", "title": title, "status": status, **extra}
    if detail:
        body["detail"] = detail
    return Response(body, status_code=status, media_type=MEDIA_TYPE, headers=headers)


# A problem's title in the reader's language (Accept-Language, as the faces send it); the
# detail of a rule violation comes from the refusal itself (its `words(lang)`), the rest stay
# English. Icelandic because KSI's official language is Icelandic (KSI 1.5.1).
TITLES: dict[str, dict[str, str]] = {
    "is": {
        "Rule violation": "Reglubrot",
        "Invalid request": "Ógild beiðni",
        "Stale version": "Úrelt útgáfa",
        "No such match": "Engin slík viðureign",
        "Forbidden": "Óheimilt",
        "Unauthorized": "Innskráningar krafist",
        "Not Found": "Finnst ekki",
    }
}
LANGUAGES = ("en", "is", "et", "lv")


def language(request: Request) -> str:
    """The first language of the request's Accept-Language that problems speak, else English."""
    for part in request.headers.get("accept-language", "").split(",")[:8]:
        base = part.split(";")[0].strip().lower().split("-")[0]
        if base in LANGUAGES:
            return base
    return "en"


def title_in(request: Request, title: str) -> str:
    """`title` in the request's language where it has one."""
    return TITLES.get(language(request), {}).get(title, title)


def _validation(request: Request, exc: ValidationException) -> Response:
    errors = [_field_error(e) for e in (exc.extra or []) if isinstance(e, dict)]
    field = errors[0]["field"] if errors else ""
    title = title_in(request, "Invalid request")
    return problem(exc.status_code, title, exc.detail, field=field, errors=errors)


def _field_error(error: dict[str, Any]) -> dict[str, str]:
    message = str(error.get("message", ""))
    key = str(error.get("key") or "")
    if "at `$." in message:  # msgspec names the JSON path: "... - at `$.command.player`"
        key = message.rsplit("at `$.", 1)[1].rstrip("`")
    return {"field": key, "message": message, "source": str(error.get("source") or "body")}


def _http(request: Request, exc: HTTPException) -> Response:
    extra = exc.extra if isinstance(exc.extra, dict) else {}
    return problem(exc.status_code, title_in(request, exc.detail), headers=exc.headers, **extra)


def rule_violation(request: Request, exc: Any) -> Response:
    """A refused command (any `RuleError`): its words (in the request's language where the
    discipline has them: `exc.words(lang)`), the rule it cites and the field, and (where the
    engine names it) the refusal's code, for a face to say in its own language."""
    code = getattr(exc, "code", "")
    # what the face's words for the code fill in (a name's refused character, its look-alike)
    extra = {"code": code, **getattr(exc, "params", {})} if code else {}
    said = getattr(exc, "words", None)
    detail = said(language(request)) if callable(said) else exc.message
    title = title_in(request, "Rule violation")
    return problem(422, title, detail, rule=exc.rule, field=exc.field, **extra)


def _conflict(_: Request, exc: VersionConflict) -> Response:
    return problem(
        409,
        "Stale version",
        str(exc),
        current_version=exc.current_version,
        expected_version=exc.expected_version,
    )


def _reused(_: Request, exc: CommandReused) -> Response:
    return problem(
        409,
        "Command id reused",
        f"command_id {exc.command_id} was already used for a different command; nothing was "
        "stored. A retry must repeat the same command; a new command needs a new command_id.",
        command_id=str(exc.command_id),
    )


def _internal(request: Request, exc: Exception) -> Response:
    log.error("%s", log_line("unhandled_error", request, exc))
    return problem(500, "Internal server error")


def log_line(event: str, request: Request, exc: BaseException) -> str:
    """One JSON object on one ASCII line: what the client sent is escaped, so no request can
    forge a log line or hide one behind bidi characters (ASVS V16.4.1 log injection)."""
    record = {
        "event": event,
        "method": request.scope.get("method", ""),
        "path": request.scope.get("path", ""),
        "query": request.scope.get("query_string", b"").decode("latin-1"),
        "error": f"{type(exc).__name__}: {exc}",
        "traceback": "".join(traceback.format_exception(exc)),
    }
    return json.dumps(record, ensure_ascii=True)


EXCEPTION_HANDLERS: dict[type[Exception], Any] = {
    ValidationException: _validation,
    HTTPException: _http,
    VersionConflict: _conflict,
    RuleError: rule_violation,
    CommandReused: _reused,
    Exception: _internal,
}
