"""The venue CA and its server certificate (issue 40): made once, 0600, renewed when the
laptop's names change, and a chain a TLS client accepts for every name it names."""

from __future__ import annotations

import datetime as dt
import ipaddress
import stat

import pytest
from cryptography import x509
from cryptography.x509.verification import PolicyBuilder, Store, VerificationError
from tableside.web.venue_tls import covered_names, fingerprint, spki_hash, venue_tls


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
