"""How `serve` meets the hall network (issue 40): HTTPS on any host that is not loopback
unless turned off, the operator's certificate needs its key, the venue certificate covers the
names given, and the peers are reached over HTTPS too."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from tableside.cli.hall import https_peers, transport, uncovered, wants_tls
from tableside.settings import Settings, SettingsError
from tableside.web.transport import own_origins, setup_url
from tableside.web.venue_tls import covered_names, venue_tls
from tableside.web.words import FACE_LANGUAGES, refusal


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


def an_operators_certificate(folder: Path, *names: str) -> tuple[Path, Path]:
    """A certificate chain and its key for `names`, as a federation's CA would sign them."""
    made = venue_tls(folder, names)
    return made.cert, made.key


def test_an_operators_certificate_names_the_origin_and_every_name_is_served(tmp_path):
    """Issue 52, point 6: without TABLESIDE_HTTPS_ORIGIN the origin is the certificate's own
    name (not an address it does not cover), and /live serves each of its names."""
    cert, key = an_operators_certificate(tmp_path / "federation", "tables.fed.test", "fed.test")
    settings = Settings(host="0.0.0.0", port=8443, tls_cert=cert, tls_key=key)
    way = transport(settings)
    assert way.https_origin == "https://fed.test:8443"  # its first name, sorted
    assert way.ca_fingerprint is None  # nothing for a tablet to install
    served = settings.replace(
        https_origin=way.https_origin, http_port=way.http_port, served_names=way.names
    )
    origins = own_origins(served)
    assert {"https://fed.test:8443", "https://tables.fed.test:8443"} <= set(origins)
    assert "http://127.0.0.1:8444" in origins  # the laptop's console on the plain port
    assert not any(o.startswith("http://fed") for o in origins)  # a page in clear: none


def test_the_venue_certificate_s_names_are_all_served(tmp_path):
    settings = Settings(
        host="127.0.0.1",
        port=8443,
        tls="on",
        tls_names=("hall.test", "vm.test"),
        key_file=tmp_path / "k",
    )
    way = transport(settings)
    served = settings.replace(https_origin=way.https_origin, http_port=8444, served_names=way.names)
    origins = set(own_origins(served))
    assert {"https://hall.test:8443", "https://vm.test:8443", "https://127.0.0.1:8443"} <= origins
    assert "http://hall.test:8444" not in origins


def test_a_certificate_and_a_key_that_are_not_a_pair_stop_serve_in_one_line(tmp_path):
    """Issue 52, point 6: not "serving on https://…" and a 35-line traceback, but one line
    naming both files, exit 1, before the database is touched."""
    cert, _ = an_operators_certificate(tmp_path / "a", "fed.test")
    _, other = an_operators_certificate(tmp_path / "b", "fed.test")
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("TABLESIDE_", "DATABASE"))},
        "TABLESIDE_KEY_FILE": str(tmp_path / "keys" / "checkpoint-ed25519.pem"),
    }
    tableside = str(Path(sys.executable).with_name("tableside"))
    args = ["serve", "--host", "0.0.0.0", "--tls-cert", str(cert), "--tls-key", str(other)]
    done = subprocess.run([tableside, *args], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1, done
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert (
        str(cert) in lines[0]
        and str(other) in lines[0]
        and "not a certificate and its key" in lines[0]
    )


def test_the_setup_url_is_by_address_in_the_terminal_and_the_console(tmp_path):
    """Issue 52, point 7: with TABLESIDE_HTTPS_ORIGIN naming a name, the terminal printed
    the setup URL by address and the console by name; both now by address, which no HSTS
    a browser keeps for the name can upgrade (point 5)."""
    settings = Settings(
        host="127.0.0.1",
        port=8443,
        tls="on",
        key_file=tmp_path / "k",
        https_origin="https://laptop.test:8443",
        tls_names=("laptop.test",),
    )
    way = transport(settings)
    assert way.setup_url == "http://127.0.0.1:8444/setup"
    shown = settings.replace(https_origin=way.https_origin, http_port=way.http_port)
    assert setup_url(shown) == way.setup_url  # what /api/setup hands the console
    assert uncovered(way) is None
    assert uncovered(transport(settings.replace(https_origin="https://other.test:8443"))) == (
        "other.test"
    )


@pytest.mark.parametrize("lang", FACE_LANGUAGES)
def test_the_insecure_transport_refusal_is_a_sentence_in_every_language(lang):
    """Issue 52, point 7: it began with a lowercase fragment in all four languages."""
    origin = "https://192.168.1.11:8000"
    words = refusal(lang, "insecure_transport", {"https_origin": origin})
    assert words and words[0].isupper() and words.endswith(origin), words
