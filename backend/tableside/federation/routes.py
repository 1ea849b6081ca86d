"""The federation's core API: its staff's sign-in, enrolment codes, a venue's enrolment, its
pushes, and what every page may read of a venue (its keys, its head, its alarms).

A venue authenticates with its push credential (`Authorization: Bearer tv_…`), staff with a
session (`ts_…`, `staff/accounts.py` on the federation's own tables); nothing secret is ever
accepted in a URL (the app-wide `no_token_in_url`)."""

from __future__ import annotations

import uuid
from typing import Annotated, Any

import msgspec
from litestar import Request, get, post
from litestar.datastructures import State
from litestar.exceptions import (
    ClientException,
    HTTPException,
    NotAuthorizedException,
    NotFoundException,
)
from litestar.params import Parameter

from tableside.eventlog.checkpoints import public_hex
from tableside.federation import enrolment
from tableside.federation.context import FederationContext
from tableside.federation.judge import Refusal
from tableside.federation.keeping import Kept, ack_of, held_head, keep
from tableside.federation.offers import offer_from
from tableside.staff import accounts, lockouts
from tableside.staff.login_routes import too_many
from tableside.web.auth import bearer, require, resolve
from tableside.web.problems import coded

Position = Annotated[int, Parameter(ge=0, le=2**62)]
ADMIN = "federation_admin"


class Login(msgspec.Struct, forbid_unknown_fields=True):
    """A federation staff member's sign-in."""

    username: Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
    password: Annotated[str, msgspec.Meta(min_length=1, max_length=200)]


class CodeRequest(msgspec.Struct, forbid_unknown_fields=True):
    """The venue an enrolment code is made for."""

    venue_name: Annotated[str, msgspec.Meta(min_length=1, max_length=200)]


class Enrolment(msgspec.Struct, forbid_unknown_fields=True):
    """A venue enrolling: the admin's code and its checkpoint public key (64 hex digits)."""

    code: Annotated[str, msgspec.Meta(min_length=4, max_length=100)]
    public_key: Annotated[str, msgspec.Meta(pattern="^[0-9a-f]{64}$")]


def fed(state: State) -> FederationContext:
    """The federation's shared parts (the lifespan fills the pool and the key)."""
    return state.federation


# As the venue's (staff/lockouts.py, ASVS V6.3.1): a name is locked for LOCKOUT_MINUTES
# after FAILURES wrong passwords in a row, whether or not the account exists.
FAILURES, LOCKOUT_MINUTES = 10, 15
LOCKED = "Account locked after repeated wrong passwords; try again later"


@post("/api/federation/login", summary="Sign in as federation staff")
async def login(state: State, data: Login) -> dict[str, Any]:
    """A session token (`ts_…`) for the federation admin or a registrar; 429 when locked."""
    pool = fed(state).pool
    wait = await lockouts.locked_for(pool, data.username)
    if wait:
        raise too_many(LOCKED, wait, "account", "login_locked")
    made = await accounts.login(pool, data.username, data.password)
    if made is None:
        if await lockouts.record_failure(pool, data.username, FAILURES, LOCKOUT_MINUTES):
            raise too_many(LOCKED, LOCKOUT_MINUTES * 60, "account", "login_locked")
        raise NotAuthorizedException(
            "Wrong name or password", extra=coded("federation_login_refused")
        )
    await lockouts.clear(pool, data.username)
    token, role, expires = made
    return {"token": token, "role": role, "expires_at": expires.isoformat()}


@post("/api/federation/codes", summary="Make a venue's enrolment code (federation admin)")
async def make_code(request: Request, state: State, data: CodeRequest) -> dict[str, Any]:
    """A one-time code binding `venue_name`; shown once, kept only as its hash."""
    ctx = fed(state)
    admin = require(await resolve(ctx.pool, bearer(request)), ADMIN)
    code, expires = await enrolment.make_code(ctx.pool, data.venue_name, admin.name)
    return {"code": code, "venue_name": data.venue_name, "expires_at": expires.isoformat()}


@post("/api/federation/enrol", summary="Enrol a venue once with its code")
async def enrol(state: State, data: Enrolment) -> dict[str, Any]:
    """The venue's id and push credential (shown once), and the federation's public key,
    which verifies every acknowledgement the venue is given."""
    ctx = fed(state)
    made = await enrolment.enrol(ctx.pool, data.code, bytes.fromhex(data.public_key))
    if made is None:
        raise NotAuthorizedException(
            "Unknown, spent or expired enrolment code", extra=coded("federation_code_invalid")
        )
    return {
        "venue_id": str(made.venue_id),
        "name": made.name,
        "credential": made.credential,
        "federation_key": public_hex(ctx.key),
    }


async def _venue(request: Request, ctx: FederationContext) -> uuid.UUID:
    venue_id = await enrolment.venue_of(ctx.pool, bearer(request))
    if venue_id is None:
        raise NotAuthorizedException(
            "Unknown push credential", extra=coded("federation_credential_invalid")
        )
    return venue_id


@get("/api/federation/push/head", summary="The head the federation holds of the caller")
async def pushed_head(request: Request, state: State) -> dict[str, Any]:
    """Where a venue resumes: the newest kept position and its store-wide hash."""
    ctx = fed(state)
    position, head = await held_head(ctx.pool, await _venue(request, ctx))
    return {"position": position, "head_hash": head.hex()}


@post("/api/federation/push", summary="Push a batch of the venue's store", status_code=200)
async def push(request: Request, state: State, after: Position, head: Position) -> dict[str, Any]:
    """Verify the batch against what is held, keep it and acknowledge the new head (200);
    a fork is refused (409, its alarm kept), a broken batch too (422), a gap says where to
    resume (409 `federation_gap`, `position`)."""
    ctx = fed(state)
    venue_id = await _venue(request, ctx)
    offer = offer_from(await request.body(), after, head)
    found = await keep(ctx.pool, ctx.key, venue_id, offer)
    if isinstance(found, Refusal):
        raise _refusal(found)
    if found.kept:
        ctx.archivist.kept(venue_id)
    return _kept(found)


def _kept(found: Kept) -> dict[str, Any]:
    ack = msgspec.to_builtins(found.ack) if found.ack else None
    position = found.ack.position if found.ack else 0
    return {"kept": found.kept, "offered": found.offered, "position": position, "ack": ack}


def _refusal(refusal: Refusal) -> HTTPException:
    """A refusal as its problem: the code and where; for a fork what was held and offered."""
    extra: dict[str, Any] = {
        **coded(refusal.code, position=refusal.position),
        "position": refusal.position,
        "detail": refusal.detail,
    }
    if refusal.held_hash is not None:
        extra["held_hash"] = refusal.held_hash.hex()
    if refusal.offered_hash is not None:
        extra["offered_hash"] = refusal.offered_hash.hex()
    kind = HTTPException if refusal.status == 409 else ClientException
    return kind(refusal.detail, status_code=refusal.status, extra=extra)


_VENUES = """
SELECT v.venue_id, v.name, v.enrolled_at,
       (SELECT max(position) FROM venue_events e WHERE e.venue_id = v.venue_id) AS position,
       (SELECT count(*) FROM venue_alarms a WHERE a.venue_id = v.venue_id) AS alarms
FROM venues v ORDER BY v.name, v.venue_id
"""
_KEYS = (
    "SELECT public_key, registered_at FROM venue_keys WHERE venue_id = $1 ORDER BY registered_at"
)
_ALARMS = """
SELECT alarm_id, raised_at, code, position, held_hash, offered_hash, detail FROM venue_alarms
WHERE venue_id = $1 ORDER BY alarm_id
"""
_NEWEST_ACK = """
SELECT position, head_hash, signed_at, public_key, signature FROM venue_acks
WHERE venue_id = $1 ORDER BY position DESC LIMIT 1
"""


@get("/api/federation/key", summary="The federation's public key")
async def federation_key(state: State) -> dict[str, str]:
    """The key every acknowledgement is signed with (pin it: `audit verify --witness`)."""
    return {"public_key": public_hex(fed(state).key)}


@get("/api/federation/venues", summary="Every enrolled venue")
async def venues(state: State) -> list[dict[str, Any]]:
    """Each venue: id, name, when enrolled, the newest kept position, how many alarms."""
    rows = await fed(state).pool.fetch(_VENUES)
    return [
        {
            "venue_id": str(r["venue_id"]),
            "name": r["name"],
            "enrolled_at": r["enrolled_at"].isoformat(),
            "position": r["position"] or 0,
            "alarms": r["alarms"],
        }
        for r in rows
    ]


@get("/api/federation/venues/{venue_id:uuid}", summary="One venue: keys, head, witness")
async def venue(state: State, venue_id: uuid.UUID) -> dict[str, Any]:
    """The venue's keys (enrolled, then rotations), the held head and its acknowledgement."""
    pool = fed(state).pool
    name = await pool.fetchval("SELECT name FROM venues WHERE venue_id = $1", venue_id)
    if name is None:
        raise NotFoundException("No such venue", extra=coded("federation_no_venue"))
    keys = await pool.fetch(_KEYS, venue_id)
    ack = await pool.fetchrow(_NEWEST_ACK, venue_id)
    alarms = await pool.fetchval("SELECT count(*) FROM venue_alarms WHERE venue_id = $1", venue_id)
    return {
        "venue_id": str(venue_id),
        "name": name,
        "keys": [
            {"public_key": bytes(k[0]).hex(), "registered_at": k[1].isoformat()} for k in keys
        ],
        "ack": msgspec.to_builtins(ack_of(venue_id, ack)) if ack else None,
        "alarms": alarms,
    }


@get("/api/federation/venues/{venue_id:uuid}/alarms", summary="A venue's forks, refused")
async def alarms(state: State, venue_id: uuid.UUID) -> list[dict[str, Any]]:
    """Every fork the federation refused for this venue, oldest first (public: the event's
    page and the federation admin show them)."""
    rows = await fed(state).pool.fetch(_ALARMS, venue_id)
    return [
        {
            "alarm_id": r["alarm_id"],
            "raised_at": r["raised_at"].isoformat(),
            "code": r["code"],
            "position": r["position"],
            "held_hash": bytes(r["held_hash"]).hex() if r["held_hash"] else None,
            "offered_hash": bytes(r["offered_hash"]).hex() if r["offered_hash"] else None,
            "detail": r["detail"],
        }
        for r in rows
    ]


@get("/health", summary="The federation answers")
async def health(state: State) -> dict[str, Any]:
    """200 while its database answers."""
    version = await fed(state).pool.fetchval("SELECT max(version) FROM schema_migrations")
    return {"status": "ok", "service": "federation", "schema_version": version}


CORE_ROUTES = [
    login,
    make_code,
    enrol,
    pushed_head,
    push,
    federation_key,
    venues,
    venue,
    alarms,
    health,
]
