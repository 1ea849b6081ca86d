"""`HOST=0.0.0.0 make run` (issue 40, Done when): `tableside serve --demo` on every interface
speaks HTTPS with the venue CA it made, prints the HTTPS URLs (the judges' links too) and the
setup page's QR code with the CA's fingerprint, and serves /setup in clear beside it."""

from __future__ import annotations

import asyncio
import io
import os
import ssl
import subprocess
import sys
import threading
from pathlib import Path

import httpx
import segno
import websockets
from support.hall import HallServer
from support.harness import ADMIN, free_port, wait_for
from tableside.db.roles import APP_ROLE
from tableside.db.url import with_user
from tableside.web.transport import hall_address
from tableside.web.venue_tls import CA_CERT, fingerprint, venue_tls

TABLESIDE = str(Path(sys.executable).with_name("tableside"))


def test_make_run_on_the_hall_network_prints_https_urls_and_the_setup_qr(new_database, tmp_path):
    url = new_database()
    port, http_port = free_port(), free_port()
    keys = tmp_path / "keys"
    env = {
        **os.environ,
        "HOST": "0.0.0.0",  # what `HOST=0.0.0.0 make run` hands `tableside serve --demo`
        "PORT": str(port),
        "TABLESIDE_HTTP_PORT": str(http_port),
        "DATABASE_URL": with_user(url, APP_ROLE),
        "TABLESIDE_MIGRATE_URL": url,
        "TABLESIDE_KEY_FILE": str(keys / "checkpoint-ed25519.pem"),
        "TABLESIDE_ADMIN_USER": ADMIN[0],
        "TABLESIDE_ADMIN_PASSWORD": ADMIN[1],
    }
    proc = subprocess.Popen(
        [TABLESIDE, "serve", "--demo", "--workers", "1"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(proc.stdout), daemon=True)
    reader.start()
    try:
        wait_for(lambda: any("table 5 judge" in line for line in lines), timeout=120)
        printed = "".join(lines)
        host = hall_address("0.0.0.0")
        origin, setup = f"https://{host}:{port}", f"http://{host}:{http_port}/setup"
        assert f"HTTPS: {origin}/" in printed, printed
        assert f"Tableside is serving on {origin}/" in printed
        ca_pem = (keys / CA_CERT).read_bytes()
        assert f"venue CA SHA-256 fingerprint: {fingerprint(ca_pem)}" in printed
        assert f"tablets: scan to set up (install the venue CA once): {setup}" in printed
        qr = io.StringIO()
        segno.make(setup, error="m").terminal(out=qr, compact=True)
        assert qr.getvalue() in printed  # the setup page's QR code, as a terminal shows it
        judges = [line for line in lines if " judge: " in line]
        assert judges and all(f"{origin}/judge?table=" in line for line in judges), judges

        trust = ssl.create_default_context(cafile=str(keys / CA_CERT))
        health = httpx.get(f"https://127.0.0.1:{port}/health", verify=trust, timeout=10)
        assert health.status_code == 200
        assert "strict-transport-security" in health.headers
        page = httpx.get(f"http://127.0.0.1:{http_port}/setup?lang=et", timeout=10)
        assert page.status_code == 200 and fingerprint(ca_pem) in page.text
        assert (keys / "venue-ca.key").stat().st_mode & 0o077 == 0
    finally:
        proc.terminate()
        proc.wait(30)


def test_a_federations_certificate_serves_its_names_and_setup_has_nothing_to_install(
    new_database, tmp_path
):
    """Issue 52, point 6: `--tls-cert` (here TABLESIDE_TLS_CERT): /live serves the
    certificate's own name, /setup says there is nothing to install, no CA to download."""
    federation = venue_tls(tmp_path / "federation", ["fed.test", "127.0.0.1"])
    env = {"TABLESIDE_TLS_CERT": str(federation.cert), "TABLESIDE_TLS_KEY": str(federation.key)}
    server = HallServer(
        new_database(),
        tmp_path / "keys",
        tmp_path / "serve.log",
        env=env,
        ca_file=federation.ca_cert,
    ).start()
    try:
        printed = server.output.read_text()
        assert "certificate: the operator's (--tls-cert)" in printed
        assert not (tmp_path / "keys" / CA_CERT).exists()  # no venue CA was made
        page = httpx.get(f"http://127.0.0.1:{server.http_port}/setup?lang=is", timeout=10)
        assert 'id="nothing-to-install"' in page.text and 'id="fingerprint"' not in page.text
        assert "ekkert þarf að setja upp" in page.text
        ca = httpx.get(f"http://127.0.0.1:{server.http_port}/setup/venue-ca.crt", timeout=10)
        assert ca.status_code == 404

        async def live_at(origin: str) -> str:
            ws = await websockets.connect(
                f"wss://127.0.0.1:{server.port}/live?hall=all", origin=origin, ssl=server.trust()
            )
            async with ws:
                return await asyncio.wait_for(ws.recv(), 10)

        assert asyncio.run(live_at(f"https://fed.test:{server.port}")).startswith('{"kind":')
    finally:
        server.stop()
