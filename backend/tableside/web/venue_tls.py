"""The venue's own certificate authority and the server certificate it signs (issue 40).

A tablet on the hall wifi reaches the laptop by an address no public CA will certify, and
without HTTPS its browser has no secure context: no service worker, no WebCrypto, tokens in
clear. So `tableside serve` on a non-loopback host makes a venue CA once (beside the
checkpoint signing key, private key 0600) and, from it, a certificate for the laptop's
current names and addresses, made again when they change or it nears its end. Tablets trust
the CA once, through `/setup` (docs/decisions/0117).

Files in the folder (the signing key's):
    venue-ca.pem          the CA certificate (public: what /setup serves)
    venue-ca.key          its private key (0600)
    venue-server.pem      the server certificate followed by the CA's (the chain uvicorn sends)
    venue-server.key      the server's private key (0600)
"""

from __future__ import annotations

import base64
import contextlib
import datetime as dt
import fcntl
import hashlib
import ipaddress
import os
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

CA_CERT, CA_KEY = "venue-ca.pem", "venue-ca.key"
SERVER_CERT, SERVER_KEY = "venue-server.pem", "venue-server.key"
CA_YEARS = 10
# Mozilla's intermediate profile keeps a leaf to 366 days at most (issue 52): 365 from now,
# and the hour it is back-dated. Made again 30 days before its end (on a start, and by a
# serving process itself: web/tls_profile.py), or when the names change.
SERVER_DAYS = 365
RENEW_DAYS = 30
LOCK = ".venue-tls.lock"  # held while the files are read or made (workers share the folder)
LOCK_SECONDS = 30
# The leaf's subject: its names are in its SANs alone. A CN that looks like a host name
# (an address does) is held to DNS name constraints by OpenSSL when no DNS SAN is there.
SERVER_NAME = "Tableside venue server"
CA_REPLACED = "venue-ca.replaced.pem"  # the lost CA's certificate, kept when a new one is made
NOTICE_DAYS = 7  # the console tells of a new CA this long (an event's length)
# What a venue CA may vouch for besides the machine's own names (decision 0178): RFC 1918,
# link-local, shared (RFC 6598), loopback; IPv6 unique-local, link-local, loopback.
PRIVATE_RANGES = (
    "10.0.0.0/8",
    "172.16.0.0/12",
    "192.168.0.0/16",
    "169.254.0.0/16",
    "100.64.0.0/10",
    "127.0.0.0/8",
    "fc00::/7",
    "fe80::/10",
    "::1/128",
)


class VenueTlsError(RuntimeError):
    """The CA or a certificate file is there but unusable."""


@dataclass(frozen=True)
class VenueTls:
    """What uvicorn needs (`cert`, `key`), and the CA a tablet must trust."""

    ca_cert: Path
    cert: Path
    key: Path
    made: bool = False  # the server certificate was (re)made on this start
    ca_replaced: bool = False  # a venue CA was there but is lost: a new one was made now
    outside: tuple[str, ...] = ()  # names asked that the CA's name constraints leave out


def venue_tls(folder: Path, names: Iterable[str], now: dt.datetime | None = None) -> VenueTls:
    """The venue CA in `folder` (made on first use) and a server certificate covering every
    name in `names` (DNS names and IP addresses), made again when it does not."""
    folder = folder.expanduser()
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    with _locked(folder):
        return _venue_tls(folder, names, now or dt.datetime.now(dt.UTC))


@contextlib.contextmanager
def _locked(folder: Path):
    """The folder's lock, waited for at most LOCK_SECONDS (a worker holds it a moment)."""
    deadline = time.monotonic() + LOCK_SECONDS
    with open(folder / LOCK, "a") as lock:
        while True:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise VenueTlsError(
                        f"{folder}: {LOCK} held for over {LOCK_SECONDS} s"
                    ) from None
                time.sleep(0.05)
        yield


def _venue_tls(folder: Path, names: Iterable[str], now: dt.datetime) -> VenueTls:
    asked = sorted(set(filter(None, names)))
    ca_key, ca, replaced = _load_or_create_ca(folder, asked, now)
    wanted = [n for n in asked if permits(ca, n)]
    cert_path, key_path = folder / SERVER_CERT, folder / SERVER_KEY
    current = _read_cert(cert_path) if cert_path.exists() and key_path.exists() else None
    made = current is None or not _still_good(current, ca, wanted, now)
    if made:
        _issue(ca_key, ca, wanted, now, cert_path, key_path)
    outside = tuple(n for n in asked if n not in wanted)
    return VenueTls(folder / CA_CERT, cert_path, key_path, made, replaced, outside)


def newly_replaced(folder: Path, now: dt.datetime | None = None) -> bool:
    """The venue CA was made again (its key lost) less than NOTICE_DAYS ago: the console
    says every tablet must trust the new one."""
    ca = _read_cert(folder / CA_CERT)
    if ca is None or not (folder / CA_REPLACED).exists():
        return False
    return (now or dt.datetime.now(dt.UTC)) - ca.not_valid_before_utc < dt.timedelta(NOTICE_DAYS)


def permits(ca: x509.Certificate, name: str) -> bool:
    """Whether the CA's name constraints let it vouch for `name` (no constraints: any)."""
    try:
        constraints = ca.extensions.get_extension_for_class(x509.NameConstraints).value
    except x509.ExtensionNotFound:
        return True
    subject = _general_name(name)
    return any(_within(subject, tree) for tree in constraints.permitted_subtrees or ())


def _within(subject: x509.GeneralName, tree: x509.GeneralName) -> bool:
    if isinstance(subject, x509.IPAddress) and isinstance(tree, x509.IPAddress):
        within = tree.value
        if not isinstance(within, ipaddress.IPv4Network | ipaddress.IPv6Network):
            return False  # a name constraint names a network (RFC 5280 §4.2.1.10)
        return subject.value in within
    if isinstance(subject, x509.DNSName) and isinstance(tree, x509.DNSName):
        return subject.value == tree.value or subject.value.endswith("." + tree.value)
    return False


def _constraints(names: list[str]) -> x509.NameConstraints:
    """What the venue CA may vouch for (issue 52, decision 0178): the names this machine has
    when it is made, every `.local` (mDNS) name, and the private, link-local, shared and
    loopback address ranges, plus the addresses it has outside them."""
    dns, nets = {"local", "localhost"}, {ipaddress.ip_network(r) for r in PRIVATE_RANGES}
    for name in names:
        subject = _general_name(name)
        if isinstance(subject, x509.DNSName):
            dns.add(name.lower())
        elif not any(subject.value in net for net in nets):
            nets.add(ipaddress.ip_network(subject.value))
    trees: list[x509.GeneralName] = [x509.DNSName(d) for d in sorted(dns)]
    trees += [x509.IPAddress(n) for n in sorted(nets, key=lambda n: (n.version, n))]
    return x509.NameConstraints(permitted_subtrees=trees, excluded_subtrees=None)


def fingerprint(cert_pem: bytes) -> str:
    """SHA-256 of the certificate, as a browser's and a phone's certificate view show it."""
    der = x509.load_pem_x509_certificate(cert_pem).public_bytes(serialization.Encoding.DER)
    digest = hashlib.sha256(der).hexdigest().upper()
    return ":".join(digest[i : i + 2] for i in range(0, len(digest), 2))


def spki_hash(cert_pem: bytes) -> str:
    """base64(SHA-256(SubjectPublicKeyInfo)): Chromium's --ignore-certificate-errors-spki-list
    form (the tests trust the venue CA with it) and HPKP's pin."""
    public = x509.load_pem_x509_certificate(cert_pem).public_key()
    spki = public.public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    return base64.b64encode(hashlib.sha256(spki).digest()).decode()


def covered_names(cert_pem: bytes) -> list[str]:
    """The DNS names and addresses a certificate is good for."""
    return _names_of(x509.load_pem_x509_certificate(cert_pem))


def _load_or_create_ca(folder: Path, names: list[str], now: dt.datetime):
    """(key, certificate, whether a lost CA was replaced now)."""
    cert_path, key_path = folder / CA_CERT, folder / CA_KEY
    if cert_path.exists() and key_path.exists():
        try:
            key = serialization.load_pem_private_key(key_path.read_bytes(), password=None)
            return key, x509.load_pem_x509_certificate(cert_path.read_bytes()), False
        except (ValueError, TypeError, OSError) as exc:
            raise VenueTlsError(f"{folder}: the venue CA cannot be read ({exc})") from None
    # Half a CA, or a server certificate without one: a CA was here and is lost (issue 52).
    replaced = any(p.exists() for p in (cert_path, key_path, folder / SERVER_CERT))
    if cert_path.exists():
        cert_path.replace(folder / CA_REPLACED)
    key, cert = _new_ca(names, now)
    _write_private(key_path, _private_pem(key))
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    if replaced and not (folder / CA_REPLACED).exists():
        (folder / CA_REPLACED).write_bytes(b"")  # its certificate is gone too: no fingerprint
    return key, cert, replaced


def _new_ca(names: list[str], now: dt.datetime):
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name(
        [
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Tableside venue"),
            x509.NameAttribute(NameOID.COMMON_NAME, f"Tableside venue CA {now:%Y-%m-%d %H:%M}"),
        ]
    )
    cert = (
        _builder(name, name, key.public_key(), now, now.replace(year=now.year + CA_YEARS))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(_usage(cert_sign=True), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), False)
        .add_extension(_constraints(names), critical=True)
        .sign(key, hashes.SHA256())
    )
    return key, cert


def _still_good(cert: x509.Certificate, ca: x509.Certificate, names: list[str], now) -> bool:
    return (
        _signed_by(cert, ca)
        and set(names) <= set(_names_of(cert))
        and cert.not_valid_after_utc - now > dt.timedelta(days=RENEW_DAYS)
    )


def _signed_by(cert: x509.Certificate, ca: x509.Certificate) -> bool:
    """Signed by this CA's key: a new CA made in the same minute has the same name."""
    try:
        cert.verify_directly_issued_by(ca)
    except (ValueError, TypeError, InvalidSignature):
        return False
    return True


def _issue(ca_key, ca: x509.Certificate, names: list[str], now, cert_path, key_path) -> None:
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, SERVER_NAME)])
    cert = (
        _builder(ca.subject, subject, key.public_key(), now, now + dt.timedelta(SERVER_DAYS))
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(_usage(cert_sign=False), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), False)
        .add_extension(x509.SubjectAlternativeName([_general_name(n) for n in names]), False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), False
        )
        .sign(ca_key, hashes.SHA256())
    )
    _write_private(key_path, _private_pem(key))
    chain = cert.public_bytes(serialization.Encoding.PEM) + ca.public_bytes(
        serialization.Encoding.PEM
    )
    cert_path.write_bytes(chain)


def _builder(issuer, subject, public, start, end) -> x509.CertificateBuilder:
    return (
        x509.CertificateBuilder()
        .issuer_name(issuer)
        .subject_name(subject)
        .public_key(public)
        .serial_number(x509.random_serial_number())
        .not_valid_before(start - dt.timedelta(hours=1))  # a tablet's clock a little behind
        .not_valid_after(end)
    )


def _usage(*, cert_sign: bool) -> x509.KeyUsage:
    return x509.KeyUsage(
        digital_signature=not cert_sign,
        content_commitment=False,
        key_encipherment=False,
        data_encipherment=False,
        key_agreement=False,
        key_cert_sign=cert_sign,
        crl_sign=cert_sign,
        encipher_only=False,
        decipher_only=False,
    )


def _general_name(name: str) -> x509.GeneralName:
    try:
        return x509.IPAddress(ipaddress.ip_address(name.strip("[]")))
    except ValueError:
        return x509.DNSName(name)


def _names_of(cert: x509.Certificate) -> list[str]:
    try:
        san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except x509.ExtensionNotFound:
        return []
    return [*san.get_values_for_type(x509.DNSName)] + [
        str(a) for a in san.get_values_for_type(x509.IPAddress)
    ]


def _read_cert(path: Path) -> x509.Certificate | None:
    try:
        return x509.load_pem_x509_certificate(path.read_bytes())
    except (ValueError, OSError):
        return None  # unreadable: made again


def _private_pem(key) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )


def _write_private(path: Path, pem: bytes) -> None:
    """Written 0600 from the start (never world-readable for a moment), replacing any old."""
    path.unlink(missing_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(pem)
