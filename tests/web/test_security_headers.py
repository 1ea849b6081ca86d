"""Issue 11, point 7: security headers on every face, asset and API answer, errors included.

ASVS 5.0: V3.4.3 (CSP: script-src 'self', object-src 'none', base-uri 'none'), V3.4.4
(X-Content-Type-Options nosniff), V3.4.5 (Referrer-Policy), V3.4.6 (frame-ancestors 'none'
and X-Frame-Options DENY), V3.4.8 (Cross-Origin-Opener-Policy). The browser test
(tests/browser/test_csp.py) shows the faces still work under this policy.
"""

from __future__ import annotations

import pytest
from support.harness import Api

PATHS = [
    "/",
    "/judge?table=1",
    "/screen",
    "/audit",
    "/audit/match/x",
    "/admin",
    "/js/api.js",
    "/css/base.css",
    "/sw.js",
    "/manifest.webmanifest",
    "/health",
    "/api/tables",
    "/api/whoami",
    "/api/judge-tokens",  # 401 problem
    "/api/matches/00000000-0000-0000-0000-000000000000",  # 404 problem
    "/no/such/path",  # 404 from the router
    "/schema/openapi.json",
]


def directives(csp: str) -> dict[str, str]:
    return {d.split()[0]: d.strip() for d in csp.split(";") if d.strip()}


@pytest.mark.parametrize("path", PATHS)
def test_v3_4_every_answer_carries_the_security_headers(server, path):
    r = Api(server.base).http.get(path)
    h = r.headers
    assert h["x-frame-options"] == "DENY", (path, r.status_code)
    assert h["x-content-type-options"] == "nosniff"
    assert h["referrer-policy"] == "no-referrer"
    assert "camera=()" in h["permissions-policy"]
    assert h["cross-origin-opener-policy"] == "same-origin"
    csp = directives(h["content-security-policy"])
    assert csp["script-src"] == "script-src 'self'"
    assert csp["style-src"] == "style-src 'self'"
    assert csp["frame-ancestors"] == "frame-ancestors 'none'"
    assert csp["object-src"] == "object-src 'none'"
    assert csp["base-uri"] == "base-uri 'none'"
    assert csp["default-src"] == "default-src 'none'"
    assert h["content-security-policy"].count("content-security-policy") == 0
    assert len(h.get_list("content-security-policy")) == 1


def test_v3_4_3_the_api_reference_lives_under_the_strict_policy(server):
    r = Api(server.base).http.get("/schema")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert b"cdn" not in r.content.lower() and b"<script>" not in r.content
    csp = directives(r.headers["content-security-policy"])
    assert csp["script-src"] == "script-src 'self'" and "unsafe-inline" not in str(csp)
    assert csp["frame-ancestors"] == "frame-ancestors 'none'"
    assert csp["object-src"] == "object-src 'none'" and csp["base-uri"] == "base-uri 'none'"
    assert r.headers["x-frame-options"] == "DENY"
