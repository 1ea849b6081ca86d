"""The serving TLS context to Mozilla's intermediate profile (issue 52, point 4; decision
0175): the context's own lists, and handshakes against `tableside serve` itself (the real
serve path: uvicorn's TLS with the venue CA's certificate) — TLS 1.2 and 1.3 only, ECDHE
with AEAD suites only, the groups X25519, P-256 and P-384 (X448 and P-521 refused); the leaf
at most 366 days, and made again and served by a running context before its end.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import socket
import ssl

import httpx
import pytest
from cryptography import x509
from support.faked_clock import LIB
from support.hall import HallServer
from support.harness import wait_for
from tableside.web.tls_profile import CIPHERS_TLS12, GROUPS, SUITES_TLS13, Renewal, harden
from tableside.web.venue_tls import CA_CERT, venue_tls

# Mozilla's intermediate profile as https://ssl-config.mozilla.org/ writes it (v5.7), less
# its DHE suites (decision 0175)
MOZILLA_INTERMEDIATE = (
    "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:"
    "ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305:"
    "DHE-RSA-AES128-GCM-SHA256:DHE-RSA-AES256-GCM-SHA384:DHE-RSA-CHACHA20-POLY1305"
)
INTERMEDIATE_TLS12 = {s for s in MOZILLA_INTERMEDIATE.split(":") if not s.startswith("DHE-")}
INTERMEDIATE_TLS13 = {
    "TLS_AES_128_GCM_SHA256",
    "TLS_AES_256_GCM_SHA384",
    "TLS_CHACHA20_POLY1305_SHA256",
}
INTERMEDIATE_GROUPS = ("X25519", "prime256v1", "secp384r1")


@pytest.fixture(scope="module")
def served(new_database, tmp_path_factory):
    folder = tmp_path_factory.mktemp("tls")
    server = HallServer(new_database(), folder / "keys", folder / "serve.log").start()
    yield server
    server.stop()


def client(server: HallServer, **tune) -> ssl.SSLContext:
    context = ssl.create_default_context(cafile=str(server.ca))
    if "tls" in tune:
        context.minimum_version = context.maximum_version = tune["tls"]
    if "ciphers" in tune:
        context.set_ciphers(tune["ciphers"])
    if "group" in tune:
        context.set_ecdh_curve(tune["group"])
    return context


def handshake(port: int, context: ssl.SSLContext) -> tuple[str, str, bytes]:
    """(version, suite, the leaf's DER) the server agreed to; ssl.SSLError when refused."""
    raw = socket.create_connection(("127.0.0.1", port), timeout=10)
    with raw, context.wrap_socket(raw, server_hostname="127.0.0.1") as tls:
        return tls.version(), tls.cipher()[0], tls.getpeercert(binary_form=True)


def test_the_context_lists_the_intermediate_profile_and_nothing_else():
    context = harden(ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER))
    assert context.minimum_version == ssl.TLSVersion.TLSv1_2
    listed = {c["name"] for c in context.get_ciphers()}
    assert listed == INTERMEDIATE_TLS12 | INTERMEDIATE_TLS13, listed
    assert all(c["aead"] for c in context.get_ciphers())
    assert set(CIPHERS_TLS12) == INTERMEDIATE_TLS12 and set(SUITES_TLS13) == INTERMEDIATE_TLS13
    assert GROUPS == INTERMEDIATE_GROUPS


def test_the_server_speaks_tls_1_2_and_1_3_with_aead_suites_only(served):
    version, suite, _ = handshake(served.port, client(served))
    assert (version, suite) in {("TLSv1.3", s) for s in INTERMEDIATE_TLS13}
    for suite in ("ECDHE-ECDSA-AES128-GCM-SHA256", "ECDHE-ECDSA-CHACHA20-POLY1305"):
        agreed = handshake(served.port, client(served, tls=ssl.TLSVersion.TLSv1_2, ciphers=suite))
        assert agreed[:2] == ("TLSv1.2", suite)
    # the CBC suites Python's defaults accepted (issue 52), and TLS 1.1
    for cbc in ("ECDHE-ECDSA-AES128-SHA256", "ECDHE-ECDSA-AES256-SHA384", "ECDHE-ECDSA-AES128-SHA"):
        with pytest.raises(ssl.SSLError):
            handshake(served.port, client(served, tls=ssl.TLSVersion.TLSv1_2, ciphers=cbc))
    with pytest.raises(ssl.SSLError):
        old = client(served, tls=ssl.TLSVersion.TLSv1_1, ciphers="DEFAULT:@SECLEVEL=0")
        handshake(served.port, old)


def test_the_server_agrees_the_profiles_groups_only(served):
    """TLS 1.3, where a key share's group is the key exchange's alone (in TLS 1.2 a client's
    groups also bound the ECDSA certificate's curve: one offering X25519 alone fails there
    whatever the server allows)."""
    tls13 = ssl.TLSVersion.TLSv1_3
    for group in INTERMEDIATE_GROUPS:
        assert handshake(served.port, client(served, tls=tls13, group=group))
    for group in ("X448", "secp521r1"):  # what Python's defaults offered besides
        with pytest.raises(ssl.SSLError):
            handshake(served.port, client(served, tls=tls13, group=group))


def test_the_served_leaf_lives_366_days_at_most(served):
    _, _, der = handshake(served.port, client(served))
    leaf = x509.load_der_x509_certificate(der)
    assert leaf.not_valid_after_utc - leaf.not_valid_before_utc <= dt.timedelta(days=366)
    assert (served.keys / CA_CERT).exists()


def test_a_serving_context_renews_its_certificate_before_it_ends(tmp_path):
    """The leaf a running context serves is made again 30 days before its end and served
    from the next handshake, on the loop that serves (no restart)."""
    names = ["127.0.0.1"]
    first = venue_tls(tmp_path, names)
    context = harden(ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER))
    context.load_cert_chain(first.cert, first.key)
    soon = dt.datetime.now(dt.UTC) + dt.timedelta(days=340)  # 25 days before its end
    renewal = Renewal(context, lambda now: venue_tls(tmp_path, names, now))
    look = ssl.create_default_context()  # what is served, by a client at today's date: a
    look.check_hostname, look.verify_mode = False, ssl.CERT_NONE  # leaf from +340 d is "not yet"

    async def scenario() -> tuple[x509.Certificate, bool, bool, x509.Certificate]:
        server = await asyncio.start_server(lambda r, w: w.close(), "127.0.0.1", 0, ssl=context)
        port = server.sockets[0].getsockname()[1]
        seen = lambda: asyncio.to_thread(handshake, port, look)  # noqa: E731
        try:
            before = x509.load_der_x509_certificate((await seen())[2])
            kept, renewed = renewal.check(), renewal.check(soon)
            after = x509.load_der_x509_certificate((await seen())[2])
        finally:
            server.close()
        return before, kept, renewed, after

    before, kept, renewed, after = asyncio.run(scenario())
    assert not kept, "far from its end: the certificate is kept"
    assert renewed
    assert after.serial_number != before.serial_number
    assert after.not_valid_after_utc - soon > dt.timedelta(days=360)
    assert not renewal.check(soon), "made once: the next check keeps it"


def test_plain_http_on_the_https_port_is_answered_with_the_https_url(served):
    """Issue 52, point 5: not an empty answer, but one redirect naming the https URL."""
    answer = httpx.get(f"http://127.0.0.1:{served.port}/setup", timeout=10)
    assert answer.status_code == 301
    assert answer.headers["location"] == f"{served.canonical}/"
    assert answer.text == f"This port speaks HTTPS: open {served.canonical}/\n"
    with socket.create_connection(("127.0.0.1", served.port), timeout=10) as raw:
        raw.sendall(b"\x00\x01 not http, not tls\r\n\r\n")  # anything else: the same pointer
        assert raw.recv(4096).startswith(b"HTTP/1.1 301 ")
    assert handshake(served.port, client(served))[0] == "TLSv1.3"  # and TLS as before


def test_tableside_serve_renews_its_certificate_by_itself_before_it_ends(new_database, tmp_path):
    """Issue 52, point 4: a server left running toward its leaf's end serves a new one,
    without a restart. Its wall clock is moved 340 days on (libfaketime, that process
    only): 25 days before the end, inside the 30 days of renewal."""
    if not LIB.is_file():
        pytest.skip("libfaketime missing: run `make clock-tools` as root (faketime)")
    clock = tmp_path / "offset"
    clock.write_text("+0\n")
    env = {
        "LD_PRELOAD": str(LIB),
        "FAKETIME_TIMESTAMP_FILE": str(clock),
        "FAKETIME_NO_CACHE": "1",
        "FAKETIME_DONT_FAKE_MONOTONIC": "1",  # the loop's timers run in real time
        "TABLESIDE_TLS_RENEW_SECONDS": "0.5",
    }
    server = HallServer(new_database(), tmp_path / "keys", tmp_path / "serve.log", env=env)
    server.start()
    look = ssl.create_default_context()  # the served leaf as it is, whatever its dates
    look.check_hostname, look.verify_mode = False, ssl.CERT_NONE
    served = lambda: x509.load_der_x509_certificate(handshake(server.port, look)[2])  # noqa: E731
    try:
        first = served()
        clock.write_text("+340d\n")
        renewed = wait_for(lambda: (leaf := served()).serial_number != first.serial_number and leaf)
        lived = renewed.not_valid_after_utc - first.not_valid_after_utc
        assert dt.timedelta(days=330) < lived < dt.timedelta(days=350), lived
    finally:
        server.stop(grace=1)
