"""Enrolment (issue 49, point 2): the federation admin makes a one-time code for a venue's
name; the venue enrols once with it, binding that name to its checkpoint public key, and is
handed a push credential (`tv_…`). Only SHA-256 of a code and of a credential is kept, and
neither ever travels in a URL (decision 0167)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime

import asyncpg

from tableside.web.auth import new_token, token_hash

CODE_HOURS = 72
_MAKE = """
INSERT INTO enrolment_codes (code_hash, venue_name, created_by, expires_at)
VALUES ($1, $2, $3, now() + make_interval(hours => $4)) RETURNING expires_at
"""
# The code is spent in the same statement that finds it: two enrolments with one code
# cannot both succeed.
_SPEND = """
UPDATE enrolment_codes SET used_at = now(), venue_id = $2
WHERE code_hash = $1 AND used_at IS NULL AND expires_at > now() RETURNING venue_name
"""
_VENUE = """
INSERT INTO venues (venue_id, name, public_key, credential_hash) VALUES ($1, $2, $3, $4)
"""
_KEY = "INSERT INTO venue_keys (venue_id, public_key) VALUES ($1, $2)"
_BY_CREDENTIAL = "SELECT venue_id FROM venues WHERE credential_hash = $1"


@dataclass(frozen=True)
class Enrolled:
    """A venue enrolled: its id, its name as the code bound it, its push credential."""

    venue_id: uuid.UUID
    name: str
    credential: str


async def make_code(
    pool: asyncpg.Pool, venue_name: str, created_by: str, hours: int = CODE_HOURS
) -> tuple[str, datetime]:
    """A fresh enrolment code for `venue_name` (`fe_…`) and when it expires."""
    code = new_token("fe_")
    expires = await pool.fetchval(_MAKE, token_hash(code), venue_name, created_by, hours)
    return code, expires


async def enrol(pool: asyncpg.Pool, code: str, public_key: bytes) -> Enrolled | None:
    """Spend the code and enrol its venue with `public_key`; None for a code that is unknown,
    spent or expired."""
    venue_id, credential = uuid.uuid4(), new_token("tv_")
    async with pool.acquire() as conn, conn.transaction():
        name = await conn.fetchval(_SPEND, token_hash(code), venue_id)
        if name is None:
            return None
        await conn.execute(_VENUE, venue_id, name, public_key, token_hash(credential))
        await conn.execute(_KEY, venue_id, public_key)
    return Enrolled(venue_id, name, credential)


async def venue_of(pool: asyncpg.Pool, credential: str | None) -> uuid.UUID | None:
    """The venue a push credential names, or None."""
    if not credential or not credential.startswith("tv_"):
        return None
    return await pool.fetchval(_BY_CREDENTIAL, token_hash(credential))
