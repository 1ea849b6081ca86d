"""Password hashes with hashlib.scrypt, stored as `scrypt$n$r$p$salt_hex$hash_hex`.

scrypt is ~50 ms of CPU and 16 MB: `hash_async` / `verify_async` run it in a worker thread
(hashlib releases the GIL), at most HASHING_THREADS at once, so logins never stall the event
loop (ASVS V15.4 / issue 11, point 2). `verify_async(password, None)` checks against a dummy
hash, so an unknown username costs the same as a wrong password (ASVS V6.3.8).
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import hmac
import secrets
import weakref

import anyio
import anyio.to_thread

_N, _R, _P = 2**14, 8, 1
HASHING_THREADS = 2
_limiters: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def hash_password(password: str) -> str:
    """A fresh salted scrypt hash of `password`."""
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, n=_N, r=_R, p=_P, dklen=32)
    return f"scrypt${_N}${_R}${_P}${salt.hex()}${digest.hex()}"


def check_password(password: str, stored: str) -> bool:
    """True when `password` matches the stored hash (constant-time compare)."""
    try:
        kind, n, r, p, salt, digest = stored.split("$")
        if kind != "scrypt":
            return False
        got = hashlib.scrypt(
            password.encode(),
            salt=bytes.fromhex(salt),
            n=int(n),
            r=int(r),
            p=int(p),
            dklen=len(digest) // 2,
        )
    except ValueError:
        return False
    return hmac.compare_digest(got.hex(), digest)


@functools.cache
def dummy_hash() -> str:
    """A hash no password matches, checked in place of an unknown user's (same work)."""
    return hash_password(secrets.token_urlsafe(32))


def _limiter() -> anyio.CapacityLimiter:
    loop = asyncio.get_running_loop()
    if loop not in _limiters:
        _limiters[loop] = anyio.CapacityLimiter(HASHING_THREADS)
    return _limiters[loop]


async def hash_async(password: str) -> str:
    """`hash_password` in a worker thread."""
    return await anyio.to_thread.run_sync(hash_password, password, limiter=_limiter())


async def verify_async(password: str, stored: str | None) -> bool:
    """`check_password` in a worker thread; against the dummy hash when `stored` is None."""
    against = stored if stored is not None else dummy_hash()
    ok = await anyio.to_thread.run_sync(check_password, password, against, limiter=_limiter())
    return ok and stored is not None
