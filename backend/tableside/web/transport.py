"""Plain HTTP on the hall network (issue 40): no secret crosses it, every link names HTTPS.

On a server that speaks HTTPS (`Settings.https_origin`: `serve` with TLS), a request that
came over plain HTTP (or `ws://`) to a name or address that is not loopback crossed the hall
wifi in clear. Such a request may read public pages (the faces load, and say they are not in
a secure context), but a login, a bearer token or the judge's /live authentication is
refused with 403 `insecure_transport`, naming the HTTPS origin to use (ASVS V12.2.1).
Loopback stays as it was (the laptop's own browser), and so does `TABLESIDE_TLS=off` (a proxy
in front ends TLS; uvicorn's proxy headers then say https). The Host header decides, as the
browser sent it: the guard keeps honest clients from leaking, a client that lies about the
Host leaks only its own secret.

The links a server hands out (a receipt's verify_url, a judge's QR) name the HTTPS origin
when the request came in clear: `public_base`.
"""

from __future__ import annotations

import ipaddress
import socket

from litestar.connection import ASGIConnection
from litestar.exceptions import PermissionDeniedException

from tableside.web.problems import coded

LOGIN_PATH = "/api/login"
AUTH_SUBPROTOCOL = "tableside.auth"
INSECURE = "insecure_transport"


def is_loopback(host: str) -> bool:
    """127.0.0.0/8, ::1 or localhost."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def lan_address() -> str:
    """This machine's address on its default route (no packet is sent), or ""."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: only picks the outgoing interface
            address = probe.getsockname()[0]
        except OSError:
            return ""
    return "" if is_loopback(address) else address


def host_of(connection: ASGIConnection) -> str:
    """The host the client asked for (its Host header), without the port."""
    host = connection.headers.get("host", "")
    if host.startswith("["):
        return host[1 : host.find("]")]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def in_clear_on_the_hall(connection: ASGIConnection) -> bool:
    """Plain HTTP or ws:// to a name that is not loopback: it crossed the network in clear."""
    return connection.scope.get("scheme") in ("http", "ws") and not is_loopback(host_of(connection))


def _carries_secret(connection: ASGIConnection) -> bool:
    if "authorization" in connection.headers:
        return True
    if connection.scope["type"] == "websocket":
        return AUTH_SUBPROTOCOL in connection.scope.get("subprotocols", ())
    return connection.scope["path"] == LOGIN_PATH


async def no_secrets_in_clear(connection: ASGIConnection, _: object = None) -> None:
    """App-wide guard: a login or a token over plain HTTP on the hall network → 403."""
    if connection.scope.get("scheme") in ("https", "wss") or not _carries_secret(connection):
        return
    settings = connection.app.state.settings
    origin = settings.https_origin  # set when this server speaks HTTPS (serve, issue 40)
    if not origin or settings.tls == "off" or not in_clear_on_the_hall(connection):
        return
    raise PermissionDeniedException(
        "Logins and tokens are refused over plain HTTP on the hall network: they would cross "
        f"it in clear. Open {origin} (first visit: /setup).",
        extra={**coded(INSECURE, https_origin=origin), "https_origin": origin},
    )


def public_base(connection: ASGIConnection) -> str:
    """The base URL links should name: this request's own, or the HTTPS origin when the
    request came in clear over the hall network."""
    origin = connection.app.state.settings.https_origin
    if origin and in_clear_on_the_hall(connection):
        return origin + "/"
    return str(connection.base_url)
