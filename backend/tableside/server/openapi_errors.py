"""The error responses each operation declares in /schema: RFC 9457 problem details as
`application/problem+json`, per route (ASVS 5.0 V4.1.1: responses carry the content type
they declare; issue 11 point 9).

What a route can answer is derived from what it is: every operation can be malformed (400);
a path parameter can name nothing (404); a body can be too large (413) or unprocessable
(422); a `min_position` can lie past the last event (422) or time out (503); a guarded
route refuses without a token (401) or with the wrong role (403). `EXTRA` adds what only
the handler knows (a version conflict, a rule violation, a rate limit, a missing font).
"""

from __future__ import annotations

from typing import Any

import msgspec
from litestar.handlers import HTTPRouteHandler
from litestar.openapi import ResponseSpec

from tableside.web.problems import MEDIA_TYPE


class FieldError(msgspec.Struct):
    """One refused field: where (`body`, `query`, `path`) and why."""

    field: str
    message: str
    source: str


class Problem(msgspec.Struct, kw_only=True):
    """RFC 9457 problem details; the members after `detail` appear when they apply."""

    type: str = "about:blank"
    title: str
    status: int
    detail: str | None = None
    field: str | None = None
    errors: list[FieldError] | None = None
    rule: str | None = None
    code: str | None = None  # the refusal's code: its words in pwa/i18n/codes.<lang>.json
    params: dict[str, str] | None = None  # the figures the code's words name ({table}, …)
    current_version: int | None = None
    expected_version: int | None = None


class HealthReport(msgspec.Struct):
    """`/health` degraded: `database.state` is `pool exhausted` (the database answers, requests
    wait for a connection) or `unreachable`, with the reason in `database.error`; `record`:
    the record's standing (`ok`, or `disputed` with its code and why, #41)."""

    status: str
    database: dict[str, Any]
    record: dict[str, Any] | None = None


DESCRIPTIONS = {
    400: "Malformed request: bytes, JSON, path or query parameters (the problem names them)",
    401: "No valid token: log in, or use a table judge token (Authorization: Bearer)",
    403: "The token's role or table may not do this",
    404: "No such resource",
    409: "Stale `expected_version` (the problem carries `current_version`), a reused id, or"
    " the record disputed (`record_disputed`: nothing is signed, #41)",
    413: "The request body is larger than this route accepts",
    422: "Well-formed but refused: a field's value (named in `field`) or a rule (`rule`)",
    429: "Too many requests from this token or client; see Retry-After",
    503: "Not available right now (read model catching up, the server busy, a missing font); "
    "see Retry-After",
}

# Handler name → statuses only the handler knows of.
AUTHENTICATED = (401, 403)
EXTRA: dict[str, tuple[int, ...]] = {
    "create_match": (409, 422, 429),
    "post_command": (404, 409, 422, 429),
    "create_competition": (409, 422),
    "post_competition_command": (404, 409, 422),
    "check_entry_list": (404, 422),
    "import_round": (*AUTHENTICATED, 404, 409, 413, 422),
    "login": (401, 413, 422, 429),
    "change_password": (*AUTHENTICATED, 422, 429),  # branch harden-auth
    "list_lockouts": AUTHENTICATED,  # branch harden-auth
    "unlock": AUTHENTICATED,  # branch harden-auth
    "whoami": (401,),
    "create_account": (*AUTHENTICATED, 409, 422),
    "issue_token": AUTHENTICATED,
    "revoke_token": AUTHENTICATED,
    "list_tokens": AUTHENTICATED,
    "logout": AUTHENTICATED,
    "get_record": AUTHENTICATED,
    "verify_match": AUTHENTICATED,
    "find_matches": (*AUTHENTICATED, 422),
    "record_jsonl": AUTHENTICATED,
    "protocol_pdf_file": (429, 503),
    "export_results": (),
    "demo_now": (404,),  # no demo ever ran here
    "get_receipts": (404, 409, 503),  # no ending yet, the record disputed (#41), no key
    "collect": (*AUTHENTICATED, 409, 413, 422),  # a witness the store no longer holds, refused
    "newest": AUTHENTICATED,
    "connected_tablets": AUTHENTICATED,  # the console's tablets (#40)
    "bg_protocol_file": (*AUTHENTICATED, 429, 503),  # barred to spectators (KSI 1.6.4)
    "get_bg_match": AUTHENTICATED,  # a match barred to spectators (KSI 1.6.4): a token reads it
    "get_bg_plays": AUTHENTICATED,
    "get_bg_match_at": AUTHENTICATED,
    "get_bg_mat": AUTHENTICATED,
    "get_port_export": (403, 429, 503),  # 403: a match barred to spectators (KSI 1.6.4,
    "get_port_match": (403,),  # match/http/watching.py): the staff's token reads it
    "get_port_match_at": (403,),
    "match_events": (403,),
    "get_standings_pdf": (429, 503),  # a PDF per client is bounded (#50)
    "get_federation_report": (*AUTHENTICATED, 429, 503),
}


def statuses(handler: Any) -> set[int]:
    """The error statuses `handler` can answer with."""
    out = {400}
    if "{" in next(iter(handler.paths)):
        out.add(404)
    if handler.parsed_data_field is not None:
        out |= {413, 422}
    if "min_position" in handler.parsed_fn_signature.parameters:
        out |= {422, 503}  # past the last stored event; the read model catching up
    if handler.guards:
        out |= set(AUTHENTICATED)
    return out | set(EXTRA.get(handler.handler_name, ()))


def spec(status: int) -> ResponseSpec:
    """A problem+json response."""
    return ResponseSpec(
        data_container=Problem,
        media_type=MEDIA_TYPE,
        description=DESCRIPTIONS[status],
        generate_examples=False,
    )


def declare(handlers: list) -> list:
    """`handlers`, each documenting its problem responses in /schema (`/health`: its 503)."""
    for handler in handlers:
        if not isinstance(handler, HTTPRouteHandler) or not handler.include_in_schema:
            continue
        declared = {status: spec(status) for status in sorted(statuses(handler))}
        if handler.handler_name == "health":
            declared = {
                503: ResponseSpec(
                    data_container=HealthReport,
                    description="The database does not answer, or the pool is exhausted",
                    generate_examples=False,
                )
            }
        handler.responses = {**declared, **(handler.responses or {})}
    return handlers
