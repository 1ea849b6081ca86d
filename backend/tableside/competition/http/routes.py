"""Competition commands over HTTP: create one from its guide, post a command to it.

Idempotent by command_id, `expected_version` checked (409 with the current version), rule
errors as 422 citing the paragraph; roles checked per command (`competition_dto.roles_for`).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from functools import partial
from uuid import UUID

import anyio.to_thread
import msgspec
from litestar import Request, post
from litestar.exceptions import ClientException, HTTPException, NotFoundException
from litestar.params import FromPath, JSONBody

from tableside.competition import hall
from tableside.competition.http.dto import (
    CompetitionCommandRequest,
    CompetitionCommandResponse,
    CreateCompetitionRequest,
    EntryCheckRequest,
    roles_for,
)
from tableside.competition.rules import commands as cc
from tableside.competition.rules.entry_check import check_entries
from tableside.competition.runtime import CompetitionRuntime, Competitions
from tableside.competition.service import (
    COMPETITION_IDS,
    CompetitionNotFound,
    NothingToCall,
    stamped,
)
from tableside.eventlog import VersionConflict
from tableside.eventlog.digest import command_digest
from tableside.match.http.responses import CommandResponse, stored_response
from tableside.web.auth import Principal
from tableside.web.consistency import Db
from tableside.web.context import Pool
from tableside.web.guards import principal_of, signed_in
from tableside.web.problems import coded


def caller(request: Request, *roles: str) -> Principal:
    """The caller `signed_in` let through, in one of `roles` (403 as problem details)."""
    return principal_of(request, *roles)


def meta(principal: Principal, device_id: str) -> dict[str, str]:
    """Who recorded a command, from which device."""
    out = {"recorder": principal.name, "role": principal.role}
    return {**out, "device_id": device_id} if device_id else out


async def store(
    db: Db,
    competitions: CompetitionRuntime,
    command_id: UUID,
    comp_id: UUID,
    work: Callable[..., object],
    digest: bytes,
) -> CompetitionCommandResponse:
    """Answer a stored command_id at once (CommandReused → 409 when it held another command);
    else run `work(digest=…)` in a thread and answer from it. `db`: the pool, or the
    connection holding the hall's lock when a call holds it (its reads run there, never on
    the pool)."""
    prior = await stored_response(db, command_id, digest)
    if prior is None:
        try:
            await anyio.to_thread.run_sync(partial(work, digest=digest))
        except VersionConflict:
            prior = await stored_response(db, command_id, digest)
            if prior is None:
                raise
        except CompetitionNotFound:
            raise NotFoundException(
                f"competition {comp_id} does not exist", extra=coded("no_competition")
            ) from None
        except NothingToCall as exc:
            raise ClientException(
                status_code=409,
                detail="Nothing to call",
                extra={"detail": str(exc), "reason": "nothing_to_call", **coded("nothing_to_call")},
            ) from None
        prior = await stored_response(db, command_id, digest)
    return _answer(competitions, prior, command_id, comp_id)


def _answer(
    competitions: CompetitionRuntime, prior: CommandResponse | None, command_id: UUID, comp_id: UUID
) -> CompetitionCommandResponse:
    if prior is None:  # stored_response after the work stored it: a bug if missing
        raise RuntimeError(f"command {command_id} stored but not found")
    if prior.match_id != comp_id:
        raise HTTPException(
            status_code=409,
            detail="command_id was used for another stream",
            extra=coded("command_reused"),
        )
    competitions.wake()
    return CompetitionCommandResponse(
        comp_id, command_id, prior.first_version, prior.last_version, prior.positions, prior.events
    )


@post(
    "/api/competitions",
    status_code=201,
    summary="Create a competition from its guide",
    guards=[signed_in("head_judge")],
)
async def create_competition(
    request: Request,
    pool: Pool,
    competitions: Competitions,
    data: JSONBody[CreateCompetitionRequest],
) -> CompetitionCommandResponse:
    """Head judge: CompetitionCreated at version 0."""
    principal = caller(request, "head_judge")
    comp_id = data.competition_id or uuid.uuid5(COMPETITION_IDS, str(data.command_id))
    command = stamped(cc.CreateCompetition(data.guide, ""))
    work = partial(
        competitions.service.create,
        comp_id,
        command,
        command_id=data.command_id,
        meta=meta(principal, data.device_id),
    )
    digest = command_digest("competition.create", comp_id, data.guide)
    return await store(pool, competitions, data.command_id, comp_id, work, digest)


@post(
    "/api/competitions/{competition_id:uuid}/commands",
    status_code=201,
    summary="Post a competition command",
    guards=[signed_in("head_judge", "secretary")],
)
async def post_competition_command(
    request: Request,
    pool: Pool,
    competitions: Competitions,
    competition_id: FromPath[UUID],
    data: JSONBody[CompetitionCommandRequest],
) -> CompetitionCommandResponse:
    """Entries, the draw, calls, no-shows, forfeits, protests, corrections, the finish."""
    principal = caller(request, *roles_for(data.command))
    # The client's command, before the server stamps its clock into `at`.
    digest = command_digest("competition.command", competition_id, data.command)

    def work(command):
        if isinstance(command, cc.CorrectPublished | cc.MoveMatch):  # who: the signed-in one
            command = msgspec.structs.replace(command, by=principal.name)
        return partial(
            competitions.service.execute,
            competition_id,
            stamped(command),
            expected_version=data.expected_version,
            command_id=data.command_id,
            meta=meta(principal, data.device_id),
        )

    asked = competitions, data.command_id, competition_id
    if not isinstance(data.command, hall.CALLS):
        return await store(pool, *asked, work(data.command), digest)
    # A call is checked against the hall, but one stored already (a retry, or the same call
    # arriving twice at once: an answer lost on the way) is answered as stored — looked up
    # under the hall's lock, after any first arrival has placed it.
    async with hall.calling(pool, competitions.flows) as conn:
        if await stored_response(conn, data.command_id, digest) is not None:
            return await store(conn, *asked, work(data.command), digest)
        held = await hall.holders(conn, competitions.state_of, competitions.flows)
        calling = await hall.calling_state(competitions.state_of, competition_id)
        kept = await anyio.to_thread.run_sync(competitions.kept, competition_id, calling)
        await hall.not_started(data.command, competition_id, calling, competitions.flows)
        placed = hall.placed(data.command, competition_id, held, calling, kept)
        return await store(conn, *asked, work(placed), digest)


@post(
    "/api/competitions/{competition_id:uuid}/entry-check",
    status_code=200,
    summary="Check an entry list whole, registering nothing",
    guards=[signed_in("head_judge", "secretary")],
)
async def check_entry_list(
    request: Request,
    competitions: Competitions,
    competition_id: FromPath[UUID],
    data: JSONBody[EntryCheckRequest],
) -> dict[str, list]:
    """Each line as its registration would be decided now, in order (a good line counts
    for those after it): ok, or the paragraph it breaks and why. Nothing is written."""
    late = any(line.admitted_late for line in data.entrants)
    caller(request, *(("head_judge",) if late else ("head_judge", "secretary")))
    commands = tuple(
        stamped(cc.RegisterEntrant(e.entrant_id, e.name, e.members, "", e.team, e.admitted_late))
        for e in data.entrants
    )
    try:
        comp = await anyio.to_thread.run_sync(competitions.state_of, competition_id)
    except CompetitionNotFound:
        raise NotFoundException(
            f"competition {competition_id} does not exist", extra=coded("no_competition")
        ) from None
    verdicts = check_entries(comp, commands)
    return {"lines": [msgspec.to_builtins(v) for v in verdicts]}


COMPETITION_COMMAND_ROUTES = [create_competition, post_competition_command, check_entry_list]
