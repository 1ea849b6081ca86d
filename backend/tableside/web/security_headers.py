"""Security headers on every HTTP response: faces, assets, API, problems, 404s (issue 11, 7).

A `before_send` hook, so nothing escapes it (Litestar wraps `send` for the whole app, errors
included). ASVS 5.0: V3.4.3 (a strict Content-Security-Policy: no inline script, no
`object`, `base-uri 'none'`), V3.4.4 (nosniff), V3.4.5 (Referrer-Policy), V3.4.6
(`frame-ancestors 'none'`, with X-Frame-Options for old browsers), V3.4.8 (COOP), V3.4.1
(HSTS on every HTTPS answer, issue 40: a tablet that once reached the venue over HTTPS
never falls back to plain HTTP for that name; browsers keep no HSTS for a bare address).

The faces load only their own files; `img-src data:` is for the judge-token QR codes
(`qr_svg` data URIs). The API reference at /schema is our own page and script (no CDN), so
it lives under the same policy.
"""

from __future__ import annotations

from litestar.types import Message, Scope

STRICT_CSP = "; ".join(
    (
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "manifest-src 'self'",
        "worker-src 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
        "object-src 'none'",
        "base-uri 'none'",
    )
)
PERMISSIONS = "camera=(), microphone=(), geolocation=(), payment=(), usb=(), display-capture=()"
COMMON = (
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"permissions-policy", PERMISSIONS.encode()),
    (b"cross-origin-opener-policy", b"same-origin"),
)
# 180 days: longer than an event, shorter than the venue certificate (397 days).
HSTS = (b"strict-transport-security", b"max-age=15552000")


def csp(peers: tuple[str, ...] = ()) -> str:
    """The strict policy; with peer servers (TABLESIDE_PEERS) a face may also call them, over
    HTTP and /live, to move there by itself when this server stops answering (issue 33)."""
    if not peers:
        return STRICT_CSP
    sockets = [p.replace("http", "ws", 1) for p in peers]
    return STRICT_CSP.replace(
        "connect-src 'self'", " ".join(("connect-src 'self'", *peers, *sockets))
    )


def security_headers(peers: tuple[str, ...] = ()):
    """The `before_send` hook: each header the handler did not set itself is added."""
    wanted = ((b"content-security-policy", csp(peers).encode()), *COMMON)

    async def add_security_headers(message: Message, scope: Scope) -> None:
        if message["type"] != "http.response.start":
            return
        headers = list(message.get("headers") or [])
        present = {name.lower() for name, _ in headers}
        headers += [(n, v) for n, v in wanted if n not in present]
        if scope.get("scheme") == "https":
            headers.append(HSTS)
        message["headers"] = headers

    return add_security_headers
