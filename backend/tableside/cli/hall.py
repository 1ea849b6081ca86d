"""How `serve` meets the hall network (issue 40, docs/decisions/0117): HTTPS on a non-loopback
host, with the operator's certificate or the venue CA's, and plain HTTP beside it for /setup.

`transport(settings)` decides; `serve` binds one listener per port and runs uvicorn's TLS on
the first. The app learns the HTTPS origin (`Settings.https_origin`) to name it in links and
in the refusals it gives over plain HTTP.
"""

from __future__ import annotations

import socket
from dataclasses import dataclass

from tableside.settings import Settings, SettingsError
from tableside.staff.links import ANY
from tableside.web.transport import is_loopback, lan_address
from tableside.web.venue_tls import fingerprint, venue_tls


@dataclass(frozen=True)
class Transport:
    """TLS or not; with TLS, the files uvicorn loads and what the console prints."""

    certfile: str | None = None
    keyfile: str | None = None
    https_origin: str | None = None
    http_port: int | None = None
    setup_url: str | None = None
    ca_fingerprint: str | None = None  # None: the operator's certificate, nothing to install
    renewed: bool = False

    @property
    def tls(self) -> bool:
        return self.certfile is not None


def wants_tls(settings: Settings) -> bool:
    """`TABLESIDE_TLS`: on, off, or auto (HTTPS on any host that is not loopback)."""
    if settings.tls_cert or settings.tls == "on":
        return True
    return settings.tls == "auto" and not is_loopback(settings.host)


def shown_host(host: str) -> str:
    """The address a tablet should use: the hall-network address when listening everywhere."""
    return (lan_address() or "127.0.0.1") if host in ANY else host


def hall_names(host: str, extra: tuple[str, ...] = ()) -> list[str]:
    """Every name and address this machine answers to on the hall network, for the
    certificate: its host name (and `.local` for mDNS), its address on the default route,
    the address it listens on, loopback, and the operator's `TABLESIDE_TLS_NAMES`."""
    name = socket.gethostname()
    names = [name, f"{name}.local", "localhost", "127.0.0.1", lan_address(), *extra]
    if host not in ANY:
        names.append(host)
    return sorted({n for n in names if n})


def https_peers(peers: tuple[str, ...]) -> tuple[str, ...]:
    """The peer servers as an HTTPS face reaches them: every venue server speaks HTTPS on the
    hall network, and a page on HTTPS may not call plain HTTP (mixed content)."""
    return tuple(
        "https://" + p.removeprefix("http://") if p.startswith("http://") else p for p in peers
    )


def transport(settings: Settings) -> Transport:
    """Plain HTTP (loopback, or TLS off), or HTTPS with the files and the origin to print."""
    if not wants_tls(settings):
        return Transport()
    if bool(settings.tls_cert) != bool(settings.tls_key):
        raise SettingsError("--tls-cert and --tls-key (TABLESIDE_TLS_CERT/_KEY) go together")
    shown = shown_host(settings.host)
    netloc = f"[{shown}]" if ":" in shown else shown
    http_port = settings.http_port or settings.port + 1
    common = {
        "https_origin": settings.https_origin or f"https://{netloc}:{settings.port}",
        "http_port": http_port,
        "setup_url": f"http://{netloc}:{http_port}/setup",
    }
    if settings.tls_cert:
        return Transport(str(settings.tls_cert), str(settings.tls_key), **common)
    made = venue_tls(settings.tls_folder, hall_names(settings.host, settings.tls_names))
    return Transport(
        str(made.cert),
        str(made.key),
        ca_fingerprint=fingerprint(made.ca_cert.read_bytes()),
        renewed=made.made,
        **common,
    )
