"""Korona's answers to the discipline port's command questions (`match/discipline.py`): who
may post which command (roles by command; a judge token only for its table's current match),
the command as its caller stands behind it (a head judge's confirmation is their own), what
a command decides on the match's `MatchView` (the venue's calls and closings beside the
engine's), the new stream a create body asks for, and abandoning an unfinished match."""

from __future__ import annotations

import uuid
from uuid import UUID

import msgspec
from litestar.exceptions import PermissionDeniedException

from tableside.disciplines.korona import commands as rc
from tableside.disciplines.korona import decide
from tableside.disciplines.korona.commands import ReportIncident
from tableside.disciplines.korona.errors import RuleViolation
from tableside.disciplines.korona.state import initial_state
from tableside.eventlog import VersionConflict
from tableside.eventlog.digest import command_digest
from tableside.match.discipline import MATCH_IDS, Creation
from tableside.match.events import MatchAbandoned, MatchScheduled, PlayersCalled
from tableside.match.port_service import Matches
from tableside.plugins.korona.commands import HEAD_JUDGE_ONLY, STAFF_ONLY, CallPlayers, CloseMatch
from tableside.plugins.korona.folding import MatchView
from tableside.plugins.korona.http.dto import CreateMatchRequest
from tableside.web.auth import Principal
from tableside.web.problems import coded

CLOSED = "closed_by_head_judge"  # MatchAbandoned's reason for CloseMatch (words: codes.*.json)
_TRANSPORT = ("command_id", "match_id", "expected_version", "device_id", "device_time")


def roles_for(command: object) -> tuple[str, ...]:
    """Corrections: head judge; calls: head judge or secretary; reports: also the table judge."""
    if type(command) in HEAD_JUDGE_ONLY:
        return ("head_judge",)
    if type(command) in STAFF_ONLY:
        return ("head_judge", "secretary")
    return ("head_judge", "table_judge")


def confirmed_by_caller(command: object, principal: Principal) -> object:
    """A head judge's confirmation (EKML §22(4)) is the caller's own: a head judge's confirmed
    report records who confirmed; anyone else's `confirmed` is dropped, so the engine refuses
    it as unconfirmed (`head_judge_confirms`), in the reader's words."""
    if not isinstance(command, ReportIncident) or not command.confirmed:
        return command
    if principal.role == "head_judge":
        return msgspec.structs.replace(command, confirmed_by=principal.name)
    return msgspec.structs.replace(command, confirmed=False, confirmed_by="")


def authorize(principal: Principal, view: MatchView, current: tuple[UUID, int] | None) -> None:
    """On the match's fresh view: a judge token only for its table's current match."""
    if principal.role != "table_judge":
        return
    if view.table != principal.table:
        raise PermissionDeniedException(
            f"This token records for table {principal.table}",
            extra=coded("token_other_table", table=principal.table),
        )
    # What this process has followed may lag: a match scheduled after the one it knows
    # is the current one.
    if current and current[0] != view.match_id and current[1] > view.scheduled_position:
        raise PermissionDeniedException(
            "Not the match this table is playing now", extra=coded("not_table_match")
        )


def creation(data: CreateMatchRequest) -> Creation:
    """MatchCreated + MatchScheduled on the body's table, as one append at version 0."""
    match_id = data.match_id or uuid.uuid5(MATCH_IDS, str(data.command_id))
    command = rc.CreateMatch(
        match_id=str(match_id),
        side_a=data.side_a,
        side_b=data.side_b,
        ruleset=data.ruleset,
        fmt=data.format,
        games=data.games,
        play_all=data.play_all,
        points=data.points,
        fill_silences=data.fill_silences,
        at=data.at,
    )
    venue = MatchScheduled(table=data.table, competition_id=data.competition_id, at=data.at)
    asked = msgspec.structs.asdict(data)
    for transport in _TRANSPORT:
        del asked[transport]
    digest = command_digest("match.create", match_id, asked)
    return Creation(match_id, created(command, venue), digest, table=data.table)


def created(command: rc.CreateMatch, venue: MatchScheduled) -> tuple:
    """A new match's events: what the engine decides, then where the venue put it."""
    return (*decide(initial_state(), command), venue)


def decide_on(view: MatchView, command: object) -> tuple:
    """The events of a command on the match as it stands (an abandoned match takes none)."""
    if view.abandoned:
        raise RuleViolation(
            "EKML §16(12)",
            f"the match was abandoned: {view.abandoned}",
            "type",
            code="match_abandoned",
        )
    if isinstance(command, CallPlayers):
        _not_ended(view)
        return (PlayersCalled(table=view.table or 0, at=command.at),)
    if isinstance(command, CloseMatch):
        _not_ended(view)
        return (MatchAbandoned(reason=CLOSED, note=command.note, at=command.at),)
    return decide(view.state, command)


def _not_ended(view: MatchView) -> None:
    if view.state.ended:
        raise RuleViolation("EKML §16(12)", "the match has ended", "type", code="match_ended")


def abandon(matches: Matches, match_id: UUID, reason: str, at: str, meta, won_by: str = "") -> bool:
    """Close an unfinished match with MatchAbandoned and its reason (a forfeit: the side it
    was given to); False if it had ended, was abandoned already, or moved on meanwhile (then
    nothing is written)."""
    view = matches.view(match_id)
    if view.abandoned or view.state.ended or not view.state.created:
        return False
    try:
        matches.store.append(
            match_id,
            (MatchAbandoned(reason=reason, at=at, won_by=won_by),),
            expected_version=view.version,
            command_id=uuid.uuid5(match_id, "abandoned"),
            meta=meta,
        )
    except VersionConflict:
        return False
    return True
