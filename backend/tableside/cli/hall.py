"""How `serve` meets the hall network (issue 40, docs/decisions/0117): HTTPS on a non-loopback
host, with the operator's certificate or the venue CA's, and plain HTTP beside it for /setup.

`transport(settings)` decides; `serve` binds one listener per port and runs uvicorn's TLS on
the first. The app learns the HTTPS origin (`Settings.https_origin`) to name it in links and
in the refusals it gives over plain HTTP.
"""

from __future__ import annotations

import asyncio
import socket
import ssl
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from tableside.settings import Settings, SettingsError
from tableside.web.tls_profile import Renewal, harden, renewing
from tableside.web.transport import (
    ANY,
    hall_address,
    is_loopback,
    lan_address,
    origin_of,
    setup_url,
)
from tableside.web.venue_tls import covered_names, fingerprint, venue_tls


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
    names: tuple[str, ...] = ()  # every DNS name and address the certificate carries
    venue: tuple[str, tuple[str, ...]] | None = None  # the venue CA's folder and the names asked
    ca_replaced: bool = False  # the venue CA's key was lost: a new CA, every tablet to re-trust
    outside: tuple[str, ...] = ()  # names the venue CA's name constraints leave out
    renew_seconds: float = 3600.0  # how often the serving process checks its certificate

    @property
    def tls(self) -> bool:
        return self.certfile is not None


def wants_tls(settings: Settings) -> bool:
    """`TABLESIDE_TLS`: on, off, or auto (HTTPS on any host that is not loopback)."""
    if settings.tls_cert or settings.tls == "on":
        return True
    return settings.tls == "auto" and not is_loopback(settings.host)


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
    http_port = settings.http_port or settings.port + 1
    if settings.tls_cert:
        names = operators_names(settings.tls_cert, settings.tls_key)
        return _https(settings, str(settings.tls_cert), str(settings.tls_key), names, http_port)
    asked = tuple(hall_names(settings.host, settings.tls_names))
    made = venue_tls(settings.tls_folder, asked)
    names = tuple(covered_names(made.cert.read_bytes()))
    return _https(
        settings,
        str(made.cert),
        str(made.key),
        names,
        http_port,
        ca_fingerprint=fingerprint(made.ca_cert.read_bytes()),
        renewed=made.made,
        venue=(str(settings.tls_folder), asked),
        renew_seconds=settings.tls_renew_seconds,
        ca_replaced=made.ca_replaced,
        outside=made.outside,
    )


def _https(settings, cert: str, key: str, names, http_port: int, **venue) -> Transport:
    origin = settings.https_origin or canonical_origin(settings, names)
    shown = settings.replace(https_origin=origin, http_port=http_port)
    return Transport(
        cert,
        key,
        https_origin=origin,
        http_port=http_port,
        setup_url=setup_url(shown),
        names=names,
        **venue,
    )


def canonical_origin(settings: Settings, names: tuple[str, ...]) -> str:
    """The origin links name when the operator set none: the hall address a venue
    certificate carries; for an operator's certificate its first DNS name (a federation's
    certificate does not name the laptop's address, issue 52)."""
    address = hall_address(settings.host)
    if settings.tls_cert and address not in names:
        address = next((n for n in names if "*" not in n), address)
    return origin_of("https", address, settings.port)


def uncovered(way: Transport) -> str | None:
    """The HTTPS origin's host when the certificate does not carry it (a browser would
    refuse it), else None."""
    host = urlsplit(way.https_origin or "").hostname or ""
    for name in way.names:
        if name == host or (
            name.startswith("*.") and host.endswith(name[1:]) and host.count(".") == name.count(".")
        ):
            return None
    return host if way.names else None


def operators_names(cert: Path, key: Path | None) -> tuple[str, ...]:
    """The names an operator's certificate carries, once its key is known to be its pair:
    a wrong pair is one line at the start (issue 52), not a traceback after the banner."""
    try:
        ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(cert, key)
    except (ssl.SSLError, OSError) as exc:
        reason = getattr(exc, "reason", None) or exc.strerror or exc
        raise SettingsError(
            f"--tls-cert {cert} and --tls-key {key} are not a certificate and its key ({reason})"
        ) from None
    return tuple(covered_names(cert.read_bytes()))


def serving_context(way: Transport):
    """uvicorn's `ssl_context_factory`: its context to Mozilla's intermediate profile
    (web/tls_profile.py); with the venue CA's certificate, renewed by the serving process
    before it ends (issue 52). Called as uvicorn loads, on the loop it serves from."""
    kept: set[asyncio.Task] = set()

    def factory(config, default) -> ssl.SSLContext:
        context = harden(default())
        if way.venue is not None:
            folder, asked = way.venue
            renewal = Renewal(context, lambda now: venue_tls(Path(folder), asked, now))
            every = way.renew_seconds
            kept.add(asyncio.get_running_loop().create_task(renewing(renewal, every)))
        return context

    return factory


def https_port_config(app, way: Transport, **options):
    """uvicorn's config for the HTTPS port: uvicorn makes the TLS context
    (`serving_context`), and the port's protocol does the TLS itself, so that plain HTTP
    sent to it is answered with the way to the HTTPS origin (cli/tls_port.py, issue 52)."""
    import uvicorn

    from tableside.cli.tls_port import tls_or_plain

    class HttpsPort(uvicorn.Config):
        def load(self) -> None:
            super().load()
            context, self.ssl = self.ssl, None  # the protocol's own from here
            self.http_protocol_class = tls_or_plain(
                self.http_protocol_class, context, way.https_origin or ""
            )

    tls = {
        "ssl_certfile": way.certfile,
        "ssl_keyfile": way.keyfile,
        "ssl_context_factory": serving_context(way),  # Mozilla intermediate, renewed
    }
    return HttpsPort(app, **options, **tls)
