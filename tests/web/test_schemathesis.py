"""Every operation in /schema, fuzzed with valid and invalid data, as three callers
(anonymous, a table judge, the head judge): no 5xx, and every answer conforms to the
document — declared status, content type, schema and headers; invalid data refused, valid
data accepted or refused for a declared reason (issue 11 point 9; ASVS 5.0 V4.1.1 content
types as declared, V2.2.1 input validated against the declared schema, V16.5.3 no 500).

(schemathesis' pytest plugin does not load under pytest 9 yet, so each operation's hypothesis
strategy is driven by hand; `derandomize` keeps the run the same on every machine. Drawing
a case costs far more than sending it, so each case is drawn once and sent as every caller.)
"""

from __future__ import annotations

import os
import time

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.config import SchemathesisConfig
from schemathesis.core.failures import FailureGroup
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    positive_data_acceptance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from support.harness import Api

pytestmark = pytest.mark.long  # started first under `make test` (tests/conftest.py)

# Per operation and generation mode, each case sent as each caller: ~3,700 requests in all;
# raise it for a deeper run (`TABLESIDE_FUZZ_EXAMPLES=200`).
EXAMPLES = int(os.environ.get("TABLESIDE_FUZZ_EXAMPLES", "20"))
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    response_headers_conformance,
    negative_data_rejection,
    positive_data_acceptance,
]
CONFIG = {
    "checks": {
        "not_a_server_error": {"expected-statuses": ["2xx", "3xx", "4xx"]},
        # Valid per the schema, refused for a declared reason: no token or role, no such
        # match, a stale version, a rule of the game (422), a rate limit.
        "positive_data_acceptance": {
            "expected-statuses": ["2xx", "401", "403", "404", "409", "422", "429"]
        },
        "negative_data_rejection": {
            "expected-statuses": ["400", "401", "403", "404", "405", "409", "413", "422", "429"]
        },
    }
}
CALLERS = ("anonymous", "table_judge", "head_judge")
# Ending the head judge's session would turn every later request into a 401.
LAST = ("/api/logout",)


def _run(operation, mode, callers: dict[str, dict], failures: dict, counts: dict) -> None:
    """Each generated case sent as every caller: the cases are the same for all of them
    (derandomized), and generating them is most of the run's time, so they are drawn once."""

    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    def run(case) -> None:
        for caller, headers in callers.items():
            response = case.call(headers=headers, timeout=10)
            counts[caller].append(response.status_code)
            try:
                case.validate_response(response, checks=CHECKS, headers=headers)
            except FailureGroup as group:
                for failure in group.exceptions:
                    key = (caller, operation.label, mode.value, failure.title)
                    sent = f"{case.path_parameters} {case.query} {str(case.body)[:200]}"
                    got = f"{response.status_code} {response.text[:300]}"
                    failures.setdefault(key, f"{failure.message[:300]}\n  sent {sent}\n  got {got}")

    try:
        run()
    except Unsatisfiable:  # nothing to make invalid: no parameters, no body
        assert mode is GenerationMode.NEGATIVE, operation.label


def _token(server, head: Api, caller: str) -> str | None:
    if caller == "anonymous":
        return None
    if caller == "table_judge":
        return head.judge_token(9)["token"]
    return Api(server.base).login().token


def test_the_api_conforms_to_its_schema(server, head):
    config = SchemathesisConfig.from_dict(CONFIG)
    schema = schemathesis.openapi.from_url(f"{server.base}/schema/openapi.json", config=config)
    callers = {}
    for caller in CALLERS:
        token = _token(server, head, caller)
        callers[caller] = {"Authorization": f"Bearer {token}"} if token else {}
    operations = sorted(
        (result.ok() for result in schema.get_all_operations()), key=lambda o: o.path in LAST
    )
    assert len(operations) >= 30
    failures: dict = {}
    counts: dict[str, list[int]] = {caller: [] for caller in CALLERS}
    started = time.monotonic()
    for operation in operations:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            _run(operation, mode, callers, failures, counts)
    sent = ", ".join(f"{caller} {len(got)}" for caller, got in counts.items())
    print(f"requests: {sent} in {time.monotonic() - started:.1f} s")
    for caller, got in counts.items():
        assert got, caller
        assert not [c for c in got if c >= 500], caller
    assert not failures, "\n\n".join(f"{k}: {v}" for k, v in sorted(failures.items()))


def test_v4_1_1_every_error_response_is_declared_as_problem_json(server):
    """The document itself: each 4xx/5xx is `application/problem+json` with the Problem
    schema, and the command routes declare what their callers must handle."""
    doc = httpx.get(f"{server.base}/schema/openapi.json").json()
    assert set(doc["components"]["schemas"]["Problem"]["required"]) == {"status", "title"}
    declared = {}
    for path, operations in doc["paths"].items():
        for method, operation in operations.items():
            errors = {int(s): r for s, r in operation["responses"].items() if int(s) >= 400}
            declared[f"{method.upper()} {path}"] = set(errors)
            for status, response in errors.items():
                if path == "/health":
                    continue
                [(media, content)] = response["content"].items()
                assert media == "application/problem+json", (path, status)
                assert content["schema"]["$ref"].endswith("/Problem"), (path, status)
    command = {400, 401, 403, 404, 409, 413, 422, 429}
    assert declared["POST /api/matches/{match_id}/commands"] == command
    assert declared["POST /api/matches"] == command - {404}
    assert declared["POST /api/login"] >= {400, 401, 413, 422, 429}
    assert declared["GET /api/matches/{match_id}"] == {400, 404, 422, 503}
    assert declared["GET /api/matches/{match_id}/record"] == {400, 401, 403, 404}
