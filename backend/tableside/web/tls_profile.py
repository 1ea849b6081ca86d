"""The serving TLS context to Mozilla's "intermediate" profile (issue 52, decision 0175).

https://ssl-config.mozilla.org/ (intermediate, v5.7): TLS 1.2 and 1.3 only; for TLS 1.2
ECDHE key exchange with AEAD suites only (AES-GCM, ChaCha20-Poly1305; no CBC, no RSA key
exchange; the profile's DHE suites are left out too: every client that has them has ECDHE);
TLS 1.3's three suites (OpenSSL's default, which Python cannot narrow and need not); the
groups X25519, P-256 and P-384 (Python's defaults also offered X448 and P-521). The client
chooses among the suites, as the profile says.

Python's `ssl` sets one group at most (`set_ecdh_curve`); the list is set through the
context's own OpenSSL (`SSL_CTX_set1_groups_list`, by ctypes on the same library `_ssl`
links), after checking that the pointer read is that context's (its options agree). Where
that cannot be done the context keeps P-256 alone: still the profile's, a subset.

`renewing(context, …)` keeps a serving context's certificate current: the venue CA's leaf
is made again before its end (`venue_tls`), and the context loads it on the server's own
loop, so a server that runs for a year never serves an expired certificate.
"""

from __future__ import annotations

import _ssl
import asyncio
import contextlib
import ctypes
import datetime as dt
import ssl
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Protocol

CIPHERS_TLS12 = (
    "ECDHE-ECDSA-AES128-GCM-SHA256",
    "ECDHE-RSA-AES128-GCM-SHA256",
    "ECDHE-ECDSA-AES256-GCM-SHA384",
    "ECDHE-RSA-AES256-GCM-SHA384",
    "ECDHE-ECDSA-CHACHA20-POLY1305",
    "ECDHE-RSA-CHACHA20-POLY1305",
)
SUITES_TLS13 = ("TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256")
GROUPS = ("X25519", "prime256v1", "secp384r1")
_SSL_CTRL_SET_GROUPS_LIST = 92  # SSL_CTX_set1_groups_list is a macro over SSL_CTX_ctrl


class Made(Protocol):
    """What `venue_tls` answers: the certificate chain's and the key's files."""

    cert: Path
    key: Path


def harden(context: ssl.SSLContext) -> ssl.SSLContext:
    """`context` (a server's) narrowed to the intermediate profile; returned for chaining."""
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.maximum_version = ssl.TLSVersion.MAXIMUM_SUPPORTED
    context.set_ciphers(":".join(CIPHERS_TLS12))
    context.options |= ssl.OP_NO_COMPRESSION | ssl.OP_NO_RENEGOTIATION
    if not set_groups(context, GROUPS):
        context.set_ecdh_curve("prime256v1")
    return context


def set_groups(context: ssl.SSLContext, groups: Iterable[str]) -> bool:
    """Set the key-exchange groups the context offers; False where it cannot be done."""
    try:
        library = ctypes.CDLL(_ssl.__file__)
        get_options, control = library.SSL_CTX_get_options, library.SSL_CTX_ctrl
    except (OSError, AttributeError):
        return False
    get_options.restype, get_options.argtypes = ctypes.c_uint64, [ctypes.c_void_p]
    control.restype = ctypes.c_long
    control.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_long, ctypes.c_char_p]
    # CPython's context object: the object header, then its SSL_CTX pointer (Modules/_ssl.c)
    pointer = ctypes.c_void_p.from_address(id(context) + object.__basicsize__).value
    if not pointer or get_options(pointer) != context.options:
        return False  # not the layout this reads: leave the context alone
    names = ":".join(groups).encode()
    return control(pointer, _SSL_CTRL_SET_GROUPS_LIST, 0, names) == 1


class Renewal:
    """One serving context's certificate kept current from the files `make` writes."""

    def __init__(self, context: ssl.SSLContext, make: Callable[[dt.datetime], Made]) -> None:
        self.context = context
        self.make = make  # now → the files (venue_tls, bound to its folder and names)
        self.loaded = Path(make(dt.datetime.now(dt.UTC)).cert).read_bytes()
        self.pending = self.loaded

    def due(self, now: dt.datetime) -> Made | None:
        """The files again (made anew when the certificate nears its end); them when they
        are not what the context serves (this worker or another made them), else None."""
        made = self.make(now)
        self.pending = Path(made.cert).read_bytes()
        return made if self.pending != self.loaded else None

    def load(self, made: Made) -> None:
        """Serve the new certificate from the next handshake on (call it on the loop)."""
        self.context.load_cert_chain(made.cert, made.key)
        self.loaded = self.pending

    def check(self, now: dt.datetime | None = None) -> bool:
        """`due` and `load` at once: True when a new certificate is served."""
        made = self.due(now or dt.datetime.now(dt.UTC))
        if made is not None:
            self.load(made)
        return made is not None


async def renewing(renewal: Renewal, every: float) -> None:
    """Check every `every` seconds: the files' work on a thread, the context loaded on this
    loop (where its handshakes run); a round that fails is tried again the next."""
    while True:
        await asyncio.sleep(every)
        with contextlib.suppress(OSError, ssl.SSLError, ValueError, RuntimeError):
            made = await asyncio.to_thread(renewal.due, dt.datetime.now(dt.UTC))
            if made is not None:
                renewal.load(made)
