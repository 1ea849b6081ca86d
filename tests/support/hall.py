"""The hall network in a test (issue 40): `tableside serve` as a tablet on the hall wifi
reaches it, at `hall.test` or `vm.test` (two names of its certificate; Chromium's
--host-resolver-rules maps them to 127.0.0.1), over HTTPS with the venue CA `serve` made,
and in clear on its plain-HTTP port beside it. The harness sets no TABLESIDE_HTTPS_ORIGIN:
the server derives its one origin (its address) as a venue's does, and every name of its
certificate must work by itself (issue 52: a harness naming the tested name hid that).

One process serves both ports (the real serve path: uvicorn's TLS and the plain listener);
the browser trusts the venue CA by its SPKI hash (--ignore-certificate-errors-spki-list), as
a tablet that installed it from /setup does.
"""

from __future__ import annotations

import os
import ssl
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from tableside.db.roles import APP_ROLE
from tableside.db.url import with_user
from tableside.web.venue_tls import CA_CERT, spki_hash

from support.harness import TEST_SERVER_ENV, free_port

TABLESIDE = str(Path(sys.executable).with_name("tableside"))
HALL = "hall.test"
NAMES = (HALL, "vm.test")  # TABLESIDE_TLS_NAMES: what the certificate carries besides
# mapped to loopback too, but on no certificate: a page there is one /live does not serve
STRANGER = "elsewhere.test"


@dataclass
class HallServer:
    """`tableside serve --host 127.0.0.1` with TLS on, its certificate also for hall.test."""

    database_url: str
    keys: Path  # the folder of the checkpoint key: the venue CA is made beside it
    output: Path
    port: int = field(default_factory=free_port)
    http_port: int = field(default_factory=free_port)
    proc: subprocess.Popen | None = None
    env: dict[str, str] = field(default_factory=dict)  # more of serve's environment
    ca_file: Path | None = None  # the CA that signed an operator's certificate (TLS_CERT)

    @property
    def https(self) -> str:
        """The origin a tablet with the venue CA opens."""
        return self.at(HALL)

    def at(self, name: str) -> str:
        """The HTTPS origin at one of the certificate's names."""
        return f"https://{name}:{self.port}"

    @property
    def canonical(self) -> str:
        """The one origin the server names in links and refusals: its address."""
        return f"https://127.0.0.1:{self.port}"

    @property
    def console(self) -> str:
        """The laptop's own browser: loopback, in clear, on the plain port."""
        return f"http://127.0.0.1:{self.http_port}"

    @property
    def http(self) -> str:
        """The same server in clear, as a tablet without the CA reaches it."""
        return f"http://{HALL}:{self.http_port}"

    @property
    def api(self) -> str:
        """For the tests' own HTTP client (it resolves no hall.test): loopback over HTTPS."""
        return f"https://127.0.0.1:{self.port}"

    @property
    def ca(self) -> Path:
        return self.ca_file or self.keys / CA_CERT

    def trust(self) -> ssl.SSLContext:
        """A TLS client context that trusts the venue CA alone."""
        return ssl.create_default_context(cafile=str(self.ca))

    def spki(self) -> str:
        return spki_hash(self.ca.read_bytes())

    def start(self) -> HallServer:
        env = {
            **{k: v for k, v in os.environ.items() if k != "TABLESIDE_HTTPS_ORIGIN"},
            "DATABASE_URL": with_user(self.database_url, APP_ROLE),
            "TABLESIDE_MIGRATE_URL": self.database_url,
            "TABLESIDE_KEY_FILE": str(self.keys / "checkpoint-ed25519.pem"),
            **TEST_SERVER_ENV,
            "TABLESIDE_TLS": "on",
            "TABLESIDE_TLS_NAMES": ",".join(NAMES),
            "TABLESIDE_HTTP_PORT": str(self.http_port),
            "TABLESIDE_SHUTDOWN_SECONDS": "5",
            **self.env,
        }
        cmd = [TABLESIDE, "serve", "--host", "127.0.0.1", "--port", str(self.port)]
        with open(self.output, "ab") as out:
            self.proc = subprocess.Popen(
                [*cmd, "--workers", "1"], env=env, stdout=out, stderr=subprocess.STDOUT
            )
        deadline = time.monotonic() + 60  # as harness.Server: start-up is slow on a loaded box
        while time.monotonic() < deadline and self.proc.poll() is None:
            if self.ca.exists() and self._healthy():
                return self
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"serve did not start: {self.output.read_text()[-3000:]}")

    def _healthy(self) -> bool:
        try:
            return httpx.get(f"{self.api}/health", verify=self.trust(), timeout=1).is_success
        except (httpx.HTTPError, ssl.SSLError, OSError):
            return False

    def stop(self, grace: float = 15) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(grace)
            except subprocess.TimeoutExpired:
                self.proc.kill()
