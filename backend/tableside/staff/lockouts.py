"""Failed staff logins: a temporary lockout per username after too many wrong passwords.

Kept in PostgreSQL (`login_failures`, migration 108) so every replica sees the same count.
Names are counted whether or not an account exists, so a lockout tells nothing about which
names are real (ASVS V6.3.1, V6.3.8). The head judge can lift a lockout at once.
"""

from __future__ import annotations

import asyncpg

_LOCKED = """
SELECT extract(epoch FROM locked_until - now()) FROM login_failures
WHERE username = $1 AND locked_until > now()
"""
# Consecutive failures; a count older than one lockout period, or one whose lockout has run
# out, starts again at 1.
_FAILED = """
INSERT INTO login_failures AS f (username, failures) VALUES ($1, 1)
ON CONFLICT (username) DO UPDATE SET
    failures = CASE
        WHEN f.last_failed_at < now() - make_interval(mins => $2)
          OR f.locked_until <= now() THEN 1
        ELSE f.failures + 1 END,
    last_failed_at = now(),
    locked_until = CASE WHEN f.locked_until > now() THEN f.locked_until END
RETURNING failures
"""
_LOCK = """
UPDATE login_failures SET locked_until = now() + make_interval(mins => $2) WHERE username = $1
"""
_LIST = """
SELECT username, failures, locked_until FROM login_failures
WHERE locked_until > now() ORDER BY locked_until DESC
"""


async def locked_for(pool: asyncpg.Pool, username: str) -> float:
    """Seconds until `username` may try again; 0.0 when it is not locked."""
    left = await pool.fetchval(_LOCKED, username)
    return float(left) if left else 0.0


async def record_failure(pool: asyncpg.Pool, username: str, limit: int, minutes: int) -> bool:
    """Count a wrong password; lock the name for `minutes` at the `limit`-th. True when locked."""
    async with pool.acquire() as conn, conn.transaction():
        failures = await conn.fetchval(_FAILED, username, minutes)
        if failures >= limit:
            await conn.execute(_LOCK, username, minutes)
    return failures >= limit


async def clear(pool: asyncpg.Pool, username: str) -> bool:
    """Forget the failures of a name (right password, or the head judge lifts a lockout)."""
    status = await pool.execute("DELETE FROM login_failures WHERE username = $1", username)
    return not status.endswith(" 0")


async def locked(pool: asyncpg.Pool) -> list[dict]:
    """Names locked now: who, after how many failures, until when."""
    rows = await pool.fetch(_LIST)
    return [{"username": r[0], "failures": r[1], "locked_until": r[2].isoformat()} for r in rows]
