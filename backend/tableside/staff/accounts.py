"""Staff accounts, login sessions and table judge tokens (issue, revoke with NOTIFY)."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta

import asyncpg

from tableside.names import person_name, refuse_lookalike
from tableside.staff.passwords import hash_async, verify_async
from tableside.web.auth import new_token, token_hash

TOKEN_CHANNEL = "tableside_tokens"
SESSION_HOURS = 24

_ADD = """
INSERT INTO staff_accounts (username, role, password_hash) VALUES ($1, $2, $3)
ON CONFLICT (username) DO NOTHING
"""
_LOGIN = "SELECT role, password_hash FROM staff_accounts WHERE username = $1"
_SESSION = """
INSERT INTO staff_sessions (token_hash, username, expires_at)
VALUES ($1, $2, now() + make_interval(hours => $3)) RETURNING expires_at
"""
_ISSUE = """
INSERT INTO judge_tokens (token_id, token_hash, table_no, issued_by, expires_at)
VALUES ($1, $2, $3, $4, $5)
"""
# A competition day's play may run past midnight: it ends at 04:00 local time, and a token
# issued late at night still lives at least DAY_MIN_HOURS (docs/decisions/).
DAY_ENDS_AT = 4
DAY_MIN_HOURS = 6
_REVOKE = """
UPDATE judge_tokens SET revoked_at = now() WHERE token_id = $1 AND revoked_at IS NULL
RETURNING token_id
"""


_NAMES = "SELECT username FROM staff_accounts"


def staff_name(raw: str) -> str:
    """A staff username as stored: the names rule of every person's name (RFC 8266's nickname
    profile: no invisible character, compatibility forms folded; #50), else NameRefused."""
    return person_name(raw, "username")


async def add_account(pool: asyncpg.Pool, username: str, role: str, password: str) -> bool:
    """Create an account unless the name is taken; True when created. The name is held to
    the names rule and may not look like another account's (UTS #39 §4: a Cyrillic "а" in
    "аuditor1" beside "auditor1"): NameRefused (422) naming the character or the other name.
    In the audit trail's "Recorded by" two accounts must never read the same."""
    name = staff_name(username)
    refuse_lookalike(name, [r[0] for r in await pool.fetch(_NAMES)], "username")
    status = await pool.execute(_ADD, name, role, await hash_async(password))
    return status.endswith("1")


async def check_login(pool: asyncpg.Pool, username: str, password: str) -> str | None:
    """The role when the password is right, else None; the same scrypt work for an unknown name."""
    row = await pool.fetchrow(_LOGIN, username)
    ok = await verify_async(password, row["password_hash"] if row else None)
    return row["role"] if ok and row else None


async def login(
    pool: asyncpg.Pool, username: str, password: str
) -> tuple[str, str, datetime] | None:
    """(token, role, expires_at) for a right password, else None."""
    role = await check_login(pool, username, password)
    if role is None:
        return None
    token = new_token("ts_")
    expires = await pool.fetchval(_SESSION, token_hash(token), username, SESSION_HOURS)
    return token, role, expires


async def change_password(
    pool: asyncpg.Pool, username: str, current: str, new: str, keep_token: str
) -> bool:
    """Set a new password when `current` is right; ends every other session of the account."""
    if await check_login(pool, username, current) is None:
        return False
    new_hash = await hash_async(new)
    async with pool.acquire() as conn, conn.transaction():
        await conn.execute(
            "UPDATE staff_accounts SET password_hash = $2 WHERE username = $1", username, new_hash
        )
        await conn.execute(
            "DELETE FROM staff_sessions WHERE username = $1 AND token_hash <> $2",
            username,
            token_hash(keep_token),
        )
    return True


def judge_token_expiry(issued: datetime, hours: float | None = None) -> datetime:
    """`hours` after issue when set, else the end of the competition day (ASVS V7.3.2)."""
    if hours:
        return issued + timedelta(hours=hours)
    local = issued.astimezone()
    end = local.replace(hour=DAY_ENDS_AT, minute=0, second=0, microsecond=0)
    while end - local < timedelta(hours=DAY_MIN_HOURS):
        end += timedelta(days=1)
    return end


async def issue_judge_token(
    pool: asyncpg.Pool, table: int, issued_by: str, hours: float | None = None
) -> tuple[uuid.UUID, str]:
    """(token_id, token) for a table's judge, valid until `judge_token_expiry`."""
    token_id, token = uuid.uuid4(), new_token("tj_")
    expires = judge_token_expiry(datetime.now().astimezone(), hours)
    await pool.execute(_ISSUE, token_id, token_hash(token), table, issued_by, expires)
    return token_id, token


async def active_judge_tokens(pool: asyncpg.Pool) -> list[dict]:
    """Tokens not revoked, by table: id, table, who issued it and when (never the token)."""
    rows = await pool.fetch(
        "SELECT token_id, table_no, issued_by, issued_at, expires_at FROM judge_tokens "
        "WHERE revoked_at IS NULL AND expires_at > now() ORDER BY table_no, issued_at"
    )
    return [
        {
            "token_id": str(r[0]),
            "table": r[1],
            "issued_by": r[2],
            "issued_at": r[3].isoformat(),
            "expires_at": r[4].isoformat(),
        }
        for r in rows
    ]


async def logout(pool: asyncpg.Pool, token: str) -> None:
    """End a staff session."""
    await pool.execute("DELETE FROM staff_sessions WHERE token_hash = $1", token_hash(token))


async def revoke_judge_token(pool: asyncpg.Pool, token_id: uuid.UUID) -> bool:
    """Revoke and tell every server process (they close that token's sockets)."""
    async with pool.acquire() as conn, conn.transaction():
        revoked = await conn.fetchval(_REVOKE, token_id)
        if revoked is not None:
            await conn.execute("SELECT pg_notify($1, $2)", TOKEN_CHANNEL, str(token_id))
    return revoked is not None
