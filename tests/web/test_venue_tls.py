"""The venue CA and its server certificate (issue 40): made once, 0600, renewed when the
laptop's names change, and a chain a TLS client accepts for every name it names."""

from __future__ import annotations

import datetime as dt
import ipaddress
import stat

import pytest
from cryptography import x509
from cryptography.x509.verification import PolicyBuilder, Store, VerificationError
from tableside.web.venue_tls import (
    covered_names,
    fingerprint,
    newly_replaced,
    spki_hash,
    venue_tls,
)


def _verify(tls, name: str) -> None:
    ca = x509.load_pem_x509_certificate(tls.ca_cert.read_bytes())
    leaf, *rest = x509.load_pem_x509_certificates(tls.cert.read_bytes())
    try:
        subject = x509.IPAddress(ipaddress.ip_address(name))
    except ValueError:
        subject = x509.DNSName(name)
    verifier = PolicyBuilder().store(Store([ca])).build_server_verifier(subject)
    verifier.verify(leaf, rest)


def test_the_ca_and_the_keys_are_made_once_and_kept_0600(tmp_path):
    tls = venue_tls(tmp_path / "keys", ["hall.test", "192.168.1.11", "127.0.0.1"])
    assert tls.made
    for private in ("venue-ca.key", "venue-server.key"):
        assert stat.S_IMODE((tmp_path / "keys" / private).stat().st_mode) == 0o600
    ca_before = tls.ca_cert.read_bytes()
    again = venue_tls(tmp_path / "keys", ["127.0.0.1", "hall.test", "192.168.1.11"])
    assert not again.made, "the same names: the certificate is kept"
    assert again.ca_cert.read_bytes() == ca_before


def test_the_chain_holds_for_every_name_and_for_no_other(tmp_path):
    tls = venue_tls(tmp_path, ["hall.test", "192.168.1.11"])
    _verify(tls, "hall.test")
    _verify(tls, "192.168.1.11")
    with pytest.raises(VerificationError):
        _verify(tls, "bank.example")


def test_a_new_address_makes_a_new_certificate_under_the_same_ca(tmp_path):
    first = venue_tls(tmp_path, ["hall.test", "192.168.1.11"])
    ca = fingerprint(first.ca_cert.read_bytes())
    moved = venue_tls(tmp_path, ["hall.test", "10.0.0.7"])
    assert moved.made
    assert "10.0.0.7" in covered_names(moved.cert.read_bytes())
    assert fingerprint(moved.ca_cert.read_bytes()) == ca
    _verify(moved, "10.0.0.7")


def test_a_certificate_near_its_end_is_made_again(tmp_path):
    venue_tls(tmp_path, ["hall.test"])
    later = dt.datetime.now(dt.UTC) + dt.timedelta(days=380)
    assert venue_tls(tmp_path, ["hall.test"], now=later).made


def test_fingerprint_and_spki_hash_have_the_forms_browsers_show(tmp_path):
    pem = venue_tls(tmp_path, ["hall.test"]).ca_cert.read_bytes()
    assert len(fingerprint(pem).split(":")) == 32
    assert len(spki_hash(pem)) == 44 and spki_hash(pem).endswith("=")


def _leaf_signed_by_the_ca(folder, name: str) -> tuple[x509.Certificate, x509.Certificate]:
    """A server certificate for `name` signed with the venue CA's own key, as a thief of
    `venue-ca.key` would make one."""
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    ca = x509.load_pem_x509_certificate((folder / "venue-ca.pem").read_bytes())
    ca_key = serialization.load_pem_private_key((folder / "venue-ca.key").read_bytes(), None)
    key = ec.generate_private_key(ec.SECP256R1())
    now = dt.datetime.now(dt.UTC)
    try:
        san = x509.IPAddress(ipaddress.ip_address(name))
    except ValueError:
        san = x509.DNSName(name)
    leaf = (
        x509.CertificateBuilder()
        .issuer_name(ca.subject)
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)]))
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(hours=1))
        .not_valid_after(now + dt.timedelta(days=30))
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), False)
        .add_extension(x509.SubjectAlternativeName([san]), False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), False
        )
        .sign(ca_key, hashes.SHA256())
    )
    return ca, leaf


@pytest.mark.parametrize(
    ("name", "vouched"),
    [
        ("hall.test", True),
        ("laptop.local", True),  # mDNS: every .local name
        ("10.20.30.40", True),  # the private ranges: a new router's addresses
        ("192.168.7.7", True),
        ("203.0.113.5", True),  # an address the machine had when the CA was made
        ("bank.example", False),
        ("www.google.com", False),
        ("8.8.8.8", False),
    ],
)
def test_the_venue_ca_vouches_only_for_the_venues_names_and_address_ranges(tmp_path, name, vouched):
    """Issue 52, point 5 (decision 0178): even signed with the CA's own key, a certificate
    for a name outside its constraints is refused by a verifying client."""
    venue_tls(tmp_path, ["hall.test", "203.0.113.5", "127.0.0.1"])
    ca, leaf = _leaf_signed_by_the_ca(tmp_path, name)
    subject = _general(name)
    verifier = PolicyBuilder().store(Store([ca])).build_server_verifier(subject)
    if vouched:
        verifier.verify(leaf, [])
    else:
        with pytest.raises(VerificationError):
            verifier.verify(leaf, [])


def test_a_name_outside_the_constraints_is_left_out_and_said(tmp_path):
    venue_tls(tmp_path, ["hall.test"])
    later = venue_tls(tmp_path, ["hall.test", "tables.example.org"])
    assert later.outside == ("tables.example.org",)
    assert "tables.example.org" not in covered_names(later.cert.read_bytes())
    assert not venue_tls(tmp_path, ["hall.test", "tables.example.org"]).made  # not every start


def test_a_lost_ca_key_makes_a_new_ca_that_is_said_to_be_new(tmp_path):
    first = venue_tls(tmp_path, ["hall.test"])
    assert not first.ca_replaced and not newly_replaced(tmp_path)
    before = fingerprint(first.ca_cert.read_bytes())
    (tmp_path / "venue-ca.key").unlink()
    again = venue_tls(tmp_path, ["hall.test"])
    assert again.ca_replaced and fingerprint(again.ca_cert.read_bytes()) != before
    assert fingerprint((tmp_path / "venue-ca.replaced.pem").read_bytes()) == before
    assert newly_replaced(tmp_path)
    assert not newly_replaced(tmp_path, dt.datetime.now(dt.UTC) + dt.timedelta(days=8))
    assert not venue_tls(tmp_path, ["hall.test"]).ca_replaced  # said once, on that start
    _verify(again, "hall.test")


def test_the_leaf_lives_366_days_at_most(tmp_path):
    leaf = x509.load_pem_x509_certificate(venue_tls(tmp_path, ["hall.test"]).cert.read_bytes())
    assert leaf.not_valid_after_utc - leaf.not_valid_before_utc <= dt.timedelta(days=366)


def _general(name: str) -> x509.GeneralName:
    try:
        return x509.IPAddress(ipaddress.ip_address(name))
    except ValueError:
        return x509.DNSName(name)
