"""RFC 9457 problem details for every error response (application/problem+json)."""

from __future__ import annotations

import json
import logging
import math
import traceback
from typing import Any

from litestar import Request, Response
from litestar.exceptions import HTTPException, ValidationException

from tableside.eventlog import CommandReused, VersionConflict
from tableside.rule_error import RuleError
from tableside.web.words import FACE_LANGUAGES, phrase, refusal

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


# A problem in the reader's language (`?lang=`, else Accept-Language as the faces send it):
# its title from the faces' shared catalogue (`error.title.*`), a refusal's detail from its
# code (`code.<code>` in codes.<lang>.json, the faces' own words: decision 0130). A problem
# without words stays English, never wrong.
TITLES: dict[str, str] = {
    "Rule violation": "error.rule_violation",
    "Invalid request": "error.title.invalid_request",
    "Stale version": "error.title.stale_version",
    "Command id reused": "error.title.command_reused",
    "No such match": "error.title.no_such_match",
    "No such discipline": "error.title.no_such_discipline",
    "Bad Request": "error.title.bad_request",
    "Unauthorized": "error.title.unauthorized",
    "Forbidden": "error.title.forbidden",
    "Not Found": "error.title.not_found",
    "Method Not Allowed": "error.title.not_allowed",
    "Conflict": "error.title.conflict",
    "Request Entity Too Large": "error.title.too_large",
    "Unsupported Media Type": "error.title.media_type",
    "Too Many Requests": "error.title.too_many",
    "Internal server error": "error.title.internal",
    "Server busy": "error.title.busy",
    "Database unavailable": "error.title.unavailable",
}
LANGUAGES = FACE_LANGUAGES


def language(request: Request) -> str:
    """The reader's language: `?lang=` where it names one we speak (then the page asked for
    it), else the first of Accept-Language's that we speak, else English."""
    asked = request.query_params.get("lang", "") if request.scope.get("query_string") else ""
    if asked in LANGUAGES:
        return asked
    for part in request.headers.get("accept-language", "").split(",")[:8]:
        base = part.split(";")[0].strip().lower().split("-")[0]
        if base in LANGUAGES:
            return base
    return "en"


def title_in(request: Request, title: str) -> str:
    """`title` in the request's language where the catalogue has it (English as raised)."""
    key, lang = TITLES.get(title), language(request)
    return (phrase(lang, key) if key and lang != "en" else None) or title


def _words(lang: str, code: str, params: Any = None) -> str | None:
    """A refusal's words in another language than English; English readers (the API's, the
    tests') read it as raised, the figures and names the raiser put in included (the faces
    word every code themselves, English too)."""
    return refusal(lang, code, params) if lang != "en" and code else None


def words_in(request: Request, code: str, english: str, params: Any = None) -> str:
    """A problem's detail in the request's language: its code's words, else `english`."""
    return _words(language(request), code, params) or english


def coded(code: str, **params: object) -> dict[str, Any]:
    """A refusal's code and figures for an HTTPException's `extra`: the problem's title is
    then its words in the reader's language (`code.<code>`), and a face can word it too."""
    return (
        {"code": code, "params": {k: str(v) for k, v in params.items()}}
        if params
        else {"code": code}
    )


def _validation(request: Request, exc: ValidationException) -> Response:
    errors = [_field_error(e) for e in (exc.extra or []) if isinstance(e, dict)]
    field = errors[0]["field"] if errors else ""
    lang = language(request)
    title = title_in(request, "Invalid request")
    said = coded("invalid_field", field=field) if field else coded("invalid_body")
    detail = _words(lang, said["code"], said.get("params"))
    return problem(exc.status_code, title, detail or exc.detail, field=field, errors=errors, **said)


def _field_error(error: dict[str, Any]) -> dict[str, str]:
    message = str(error.get("message", ""))
    key = str(error.get("key") or "")
    if "at `$." in message:  # msgspec names the JSON path: "... - at `$.command.player`"
        key = message.rsplit("at `$.", 1)[1].rstrip("`")
    return {"field": key, "message": message, "source": str(error.get("source") or "body")}


def _http(request: Request, exc: HTTPException) -> Response:
    extra = dict(exc.extra) if isinstance(exc.extra, dict) else {}
    code = extra.get("code", "")
    said = _words(language(request), code, extra.get("params"))
    if said:  # the refusal in the reader's words: an English explanation beside it would not be
        extra.pop("detail", None)
    title = said or title_in(request, exc.detail)
    return problem(exc.status_code, title, headers=exc.headers, **extra)


def rule_violation(request: Request, exc: Any) -> Response:
    """A refused command (any `RuleError`): its words in the request's language (its code's
    words, else as raised), the rule it cites,
    the field, and the refusal's code and figures, for a face to say in its own language."""
    lang = language(request)
    code = getattr(exc, "code", "")
    params = getattr(exc, "params", {})
    # the words' blanks (a name's refused character, a look-alike) as `params`, and flat
    extra: dict[str, Any] = {"code": code, **params} if code else {}
    if params:
        extra["params"] = params
    detail = _words(lang, code, params) or exc.message
    title = title_in(request, "Rule violation")
    return problem(422, title, detail, rule=exc.rule, field=exc.field, **extra)


def _conflict(request: Request, exc: VersionConflict) -> Response:
    current = {"version": exc.current_version}
    return problem(
        409,
        title_in(request, "Stale version"),
        _words(language(request), "stale_version", current) or str(exc),
        code="stale_version",
        params={"version": str(exc.current_version)},
        current_version=exc.current_version,
        expected_version=exc.expected_version,
    )


def _reused(request: Request, exc: CommandReused) -> Response:
    return problem(
        409,
        title_in(request, "Command id reused"),
        _words(language(request), "command_reused")
        or f"command_id {exc.command_id} was already used for a different command; nothing was "
        "stored. A retry must repeat the same command; a new command needs a new command_id.",
        command_id=str(exc.command_id),
        code="command_reused",
    )


def _internal(request: Request, exc: Exception) -> Response:
    log.error("%s", log_line("unhandled_error", request, exc))
    return problem(500, title_in(request, "Internal server error"))


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


EXCEPTION_HANDLERS: dict[int | type[Exception], Any] = {
    ValidationException: _validation,
    HTTPException: _http,
    VersionConflict: _conflict,
    RuleError: rule_violation,
    CommandReused: _reused,
    Exception: _internal,
}


def too_many(title: str, seconds: float, reason: str, code: str) -> HTTPException:
    """429 with Retry-After in whole seconds (at least 1); `code` words it in any language."""
    wait = max(1, math.ceil(seconds))
    return HTTPException(
        status_code=429,
        detail=title,
        headers={"Retry-After": str(wait)},
        extra={"retry_after": wait, "reason": reason, **coded(code)},
    )
