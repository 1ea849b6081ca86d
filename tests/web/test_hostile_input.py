"""Issue 11, point 1: bytes a hostile hall network can send are a 4xx problem, never a 500,
and what the client sent cannot forge a server log line (ASVS 5.0: V1.1.1 decode once into a
canonical form, V1.5 safe deserialisation, V16.4.1 log encoding, V16.5.3 fail securely)."""

from __future__ import annotations

import json
import logging

import httpx
import pytest
from litestar import Request
from tableside.web.problems import EXCEPTION_HANDLERS

PROBLEM = "application/problem+json"


@pytest.fixture(scope="module")
def http(server):
    with httpx.Client(base_url=server.base, timeout=30) as client:
        yield client


def _problem(r: httpx.Response, *statuses: int) -> dict:
    assert r.status_code in statuses, (r.status_code, r.text[:300])
    assert r.headers["content-type"].startswith(PROBLEM)
    return r.json()


def test_v1_1_1_nul_in_a_path_parameter_is_400(http):
    body = _problem(http.get("/api/players/a%00b/matches"), 400)
    assert body["field"] == "path"


def test_v1_1_1_nul_in_a_static_asset_name_is_4xx(http):
    _problem(http.get("/js/api.js%00.png"), 400, 404)


def test_v1_5_invalid_utf8_in_a_json_body_is_400(http):
    r = http.post(
        "/api/login",
        content=b'{"username": "\xff\xfe", "password": "x"}',
        headers={"content-type": "application/json"},
    )
    assert "UTF-8" in _problem(r, 400)["title"]


def test_v1_5_json_nested_100000_deep_is_refused(http):
    """200 KB: past the body limit (413) before the decoder sees it."""
    deep = b"[" * 100_000 + b"]" * 100_000
    r = http.post("/api/login", content=deep, headers={"content-type": "application/json"})
    _problem(r, 400, 413)


def test_v1_5_json_nested_30000_deep_within_the_body_limit_is_400(http):
    deep = b"[" * 30_000 + b"]" * 30_000
    r = http.post("/api/login", content=deep, headers={"content-type": "application/json"})
    assert "nested" in _problem(r, 400)["title"]


def test_v1_5_json_objects_nested_10000_deep_are_400(http):
    deep = b'{"a":' * 10_000 + b"1" + b"}" * 10_000
    r = http.post("/api/login", content=deep, headers={"content-type": "application/json"})
    assert "nested" in _problem(r, 400)["title"]


def test_v1_5_malformed_json_is_400(http):
    r = http.post(
        "/api/login", content=b'{"username": ', headers={"content-type": "application/json"}
    )
    _problem(r, 400)


def test_v16_4_1_the_500_handler_logs_one_escaped_line(caplog):
    """A path with a newline and a bidi override cannot start a forged line in the log."""
    forged = "/api/x\nERROR - 2026-01-01 - tableside - forged\u202e"
    scope = {
        "type": "http",
        "method": "GET",
        "path": forged,
        "raw_path": forged.encode(),
        "query_string": b"a=%0Ab",
        "headers": [],
    }
    handler = EXCEPTION_HANDLERS[Exception]
    with caplog.at_level(logging.ERROR, logger="tableside.web.problems"):
        response = handler(Request(scope), ValueError("boom\nERROR forged too"))
    assert response.status_code == 500
    [record] = caplog.records
    line = record.getMessage()
    assert "\n" not in line and "\u202e" not in line and line.isascii()
    parsed = json.loads(line)
    assert parsed["path"] == forged and parsed["event"] == "unhandled_error"
    assert "ERROR forged too" in parsed["error"]


def test_v2_2_1_nul_inside_a_json_string_is_422_naming_the_field(server, head, http):
    r = head.create(41, ["A\u0000B"], ["C"])
    body = _problem(r, 422)
    assert body["field"] == "side_a[0]" and "U+0000" in body["detail"]
    assert head.get("/api/tables/41").status_code == 404  # nothing stored
