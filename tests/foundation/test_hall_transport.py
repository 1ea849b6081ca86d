"""How `serve` meets the hall network (issue 40): HTTPS on any host that is not loopback
unless turned off, the operator's certificate needs its key, the venue certificate covers the
names given, and the peers are reached over HTTPS too."""

from __future__ import annotations

from pathlib import Path

import pytest
from tableside.cli.hall import https_peers, transport, wants_tls
from tableside.settings import Settings, SettingsError
from tableside.web.venue_tls import covered_names


@pytest.mark.parametrize(
    ("host", "tls", "wanted"),
    [
        ("127.0.0.1", "auto", False),
        ("localhost", "auto", False),
        ("0.0.0.0", "auto", True),
        ("192.168.1.11", "auto", True),
        ("0.0.0.0", "off", False),
        ("127.0.0.1", "on", True),
    ],
)
def test_https_on_every_host_that_is_not_loopback_unless_off(host, tls, wanted):
    assert wants_tls(Settings(host=host, tls=tls)) is wanted


def test_loopback_stays_plain_http():
    assert not transport(Settings()).tls


def test_an_operators_certificate_needs_its_key(tmp_path):
    with pytest.raises(SettingsError, match="go together"):
        transport(Settings(host="0.0.0.0", tls_cert=tmp_path / "cert.pem"))


def test_the_venue_certificate_covers_the_names_given_and_setup_is_on_the_next_port(tmp_path):
    settings = Settings(
        host="127.0.0.1", port=8443, tls="on", tls_names=("hall.test",), key_file=tmp_path / "k"
    )
    way = transport(settings)
    assert way.tls and way.ca_fingerprint and way.https_origin == "https://127.0.0.1:8443"
    assert way.setup_url == "http://127.0.0.1:8444/setup"
    assert {"hall.test", "127.0.0.1", "localhost"} <= set(
        covered_names(Path(way.certfile).read_bytes())
    )


def test_peers_are_reached_over_https():
    peers = ("http://192.168.1.12:8000", "https://b.example:8000")
    assert https_peers(peers) == ("https://192.168.1.12:8000", "https://b.example:8000")


def test_settings_read_the_tls_variables():
    env = {
        "TABLESIDE_TLS": "ON",
        "TABLESIDE_TLS_NAMES": "hall.test, laptop.local",
        "TABLESIDE_HTTP_PORT": "9001",
        "TABLESIDE_HTTPS_ORIGIN": "https://hall.test:9000/",
    }
    settings = Settings.from_env(env)
    assert settings.tls == "on" and settings.tls_names == ("hall.test", "laptop.local")
    assert settings.http_port == 9001 and settings.https_origin == "https://hall.test:9000"
    with pytest.raises(SettingsError, match="TABLESIDE_TLS"):
        Settings.from_env({"TABLESIDE_TLS": "maybe"})
