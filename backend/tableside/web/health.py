"""GET /health: what the health watch saw last (web/availability.py, its own connection):
ok, `pool exhausted` or `unreachable` with the reason, which PostgreSQL, which schema; and
the record's standing (`record`: ok, or disputed with the code and why, #41); with a
federation, what its uplink saw last (`federation`: witnessed, offline, forked: issue 49); the
process's live sockets and how many the fast path serves (`live`, decision 0212)."""

from __future__ import annotations

from typing import Any

from litestar import Response, get
from litestar.datastructures import State

from tableside.db.replication import STOPPED, UNPROTECTED
from tableside.settings import Settings
from tableside.uplink.files import as_dict, read_status
from tableside.web.availability import RETRY_AFTER
from tableside.web.disputed import standing


@get("/health")
async def health(state: State) -> Response[dict[str, object]]:
    """200 with versions while the database answers and requests get connections, else 503
    saying which: the pool is exhausted (the database answers) or it is unreachable."""
    seen = state.tableside.health
    versions = {"server_version": seen.server_version, "schema_version": seen.schema_version}
    signer = state.tableside.signing_key
    record = standing(signer.dispute if signer is not None else None)
    federation = federation_seen(state.settings)
    if seen.state == "ok":
        # A disputed record (#41) still serves matches; it is said here, with a 200; so is a
        # fork the federation refused (issue 49).
        forked = federation is not None and federation["state"] == "forked"
        status = "disputed" if record["state"] == "disputed" or forked else "ok"
        body: dict[str, object] = {
            "status": status,
            "database": {"reachable": True, **versions},
            "record": record,
        }
        if state.tableside.audience is not None:  # the fast path on: `detached` grows
            body["live"] = state.tableside.audience.counts()
        if federation is not None:
            body["federation"] = federation
        if state.settings.replication and seen.replication is not None:
            body["replication"] = _replication(seen.replication, state.settings)
        return Response(body)
    database = {
        "reachable": seen.state != "unreachable",
        "state": seen.state,
        "error": seen.reason,
        **versions,
    }
    body = {"status": "degraded", "database": database, "record": record}
    return Response(body, status_code=503, headers={"Retry-After": RETRY_AFTER})


def federation_seen(settings: Settings) -> dict[str, Any] | None:
    """What the federation's uplink saw last (uplink/files.py), where one is configured:
    witnessed (and up to where), offline, or a fork refused (`forked`, its code)."""
    if not settings.federation_url:
        return None
    return as_dict(read_status(settings.uplink_folder)) or {"state": "starting"}


def _replication(seen: tuple[bool, bool, bool], settings) -> dict[str, object]:
    """Is a standby holding a copy of every commit (db/replication)? Said loudly if not."""
    synchronous, attached, standby = seen
    protected = bool(synchronous and attached)
    found: dict[str, object] = {
        "protected": protected,
        "standby_attached": bool(attached),
        "standby_required": settings.standby_required,
    }
    if standby:
        found["warning"] = "this server is a standby"
    elif not protected:
        found["warning"] = STOPPED if settings.standby_required else UNPROTECTED
    return found


@get("/api/servers")
async def servers(state: State) -> dict[str, object]:
    """The other servers of this venue (TABLESIDE_PEERS), public: every face learns them
    ahead of time and moves to one by itself when this server stops answering."""
    return {"peers": list(state.settings.peers)}
