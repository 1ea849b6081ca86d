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

The links a server hands out (a receipt's verify_url, a judge's QR, peers) name one
canonical origin, the HTTPS one, whichever name the request came by: `public_base` (issue
52). A page may open /live from every name and address the serving certificate carries and
from the laptop's own loopback console, on either port: `own_origins`.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Sequence

from litestar.connection import ASGIConnection
from litestar.exceptions import PermissionDeniedException

from tableside.settings import Settings
from tableside.web.problems import coded

LOGIN_PATH = "/api/login"
LOOPBACK = ("127.0.0.1", "localhost", "[::1]")
ANY = ("0.0.0.0", "::", "")  # a host that listens on every interface
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
        offered = connection.scope.get("subprotocols", ())
        return isinstance(offered, Sequence) and AUTH_SUBPROTOCOL in offered
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
    """The base URL links should name: the one HTTPS origin of a server that speaks HTTPS,
    whichever of its names the request came by (a link made at `vm.local` works on every
    tablet, issue 52); behind a proxy (`TABLESIDE_TLS=off`) the request's own, unless it came
    in clear over the hall network."""
    settings = connection.app.state.settings
    origin = settings.https_origin
    if origin and (settings.tls != "off" or in_clear_on_the_hall(connection)):
        return origin + "/"
    return str(connection.base_url)


def origin_of(scheme: str, host: str, port: int) -> str:
    """An Origin header's form: `scheme://host[:port]`, the port left out when it is the
    scheme's own, an IPv6 address in brackets."""
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    default = {"http": 80, "https": 443}.get(scheme)
    return f"{scheme}://{host}" if port == default else f"{scheme}://{host}:{port}"


def own_origins(settings: Settings) -> tuple[str, ...]:
    """The origins a page may open /live from (issue 52): this server's host and the
    laptop's loopback console on either port (`http://127.0.0.1:8001` beside HTTPS), every
    DNS name and address the serving certificate carries on the HTTPS port, and the HTTPS
    origin. A page in clear on the hall network is none of them (decision 0117)."""
    ports = (settings.port, *((settings.http_port,) if settings.http_port else ()))
    console = {
        origin_of(scheme, host, port)
        for host in LOOPBACK
        for port in ports
        for scheme in ("http", "https")
    }
    here = {origin_of(scheme, settings.host, settings.port) for scheme in ("http", "https")}
    named = {
        origin_of("https", name, settings.port) for name in settings.served_names if "*" not in name
    }
    canonical = {settings.https_origin} if settings.https_origin else set()
    return tuple(sorted(console | here | named | canonical))


def hall_address(host: str) -> str:
    """The address a tablet should use: the hall-network address when listening everywhere."""
    return (lan_address() or "127.0.0.1") if host in ANY else host


def setup_url(settings: Settings) -> str | None:
    """The setup page on the plain-HTTP port, by address: a browser keeps no HSTS for an
    address, so a tablet that once opened the HTTPS origin by name still reaches it there
    (issue 52). The terminal prints it and the console shows it: the same URL."""
    if not settings.https_origin or not settings.http_port:
        return None
    return f"{origin_of('http', hall_address(settings.host), settings.http_port)}/setup"
