"""Backgammon's answers to the discipline port's command questions (`match/discipline.py`):
the bodies that create a match (its players and length; a Jellyfish .mat text, each play
checked by the engine), the command as the TD who records it stands behind it (KSI 1.3.2,
4.6), and what a command decides on the stream (`stream.Played`: an undo of the last entry
resolved, a table device's undo held to its own entries). Who may post which command is
`http/access.py`'s."""

from __future__ import annotations

import uuid
from uuid import UUID

import anyio.to_thread
import msgspec
from litestar.exceptions import HTTPException

from tableside.competition.service import CompetitionNotFound
from tableside.disciplines.backgammon import commands as c
from tableside.disciplines.backgammon import decide, evolve, initial_state
from tableside.disciplines.backgammon.decide_officials import jurors_of_event
from tableside.disciplines.backgammon.errors import RuleViolation
from tableside.disciplines.backgammon.events import EntryUndone
from tableside.disciplines.backgammon.mat import MatFormatError, import_mat
from tableside.eventlog.digest import command_digest
from tableside.match.discipline import Creation
from tableside.match.errors import MatchNotFound
from tableside.plugins.backgammon.competition_link import competition_of, correction_bounds
from tableside.plugins.backgammon.http.access import undo_checker
from tableside.plugins.backgammon.http.people import event_people
from tableside.plugins.backgammon.stream import Played, last_entry_start
from tableside.web.auth import Principal
from tableside.web.context import context
from tableside.web.problems import coded
from tableside.web.words import refusal

MATCH_IDS = uuid.UUID("a1f3c9d4-2b7e-4f10-8c65-3d9e0b7a4c21")  # uuid5 namespace for match ids


class CreateRequest(msgspec.Struct, forbid_unknown_fields=True):
    """A backgammon match to `length` points (KSI 4.5)."""

    command_id: UUID
    player_a: str
    player_b: str
    length: int
    match_id: UUID | None = None
    clock: bool = False
    penalty_to_score: bool = True
    series: bool = False
    table: int = 0  # the hall's table (0: none); its judge device records the match
    device_id: str = ""
    device_time: str = ""


class ImportRequest(msgspec.Struct, forbid_unknown_fields=True):
    """A match as Jellyfish .mat text (as GNU Backgammon exports it)."""

    command_id: UUID
    text: str
    match_id: UUID | None = None
    device_id: str = ""
    device_time: str = ""


class BgCommandRequest(msgspec.Struct, forbid_unknown_fields=True):
    """One engine command at the stream version the recorder saw."""

    command_id: UUID
    expected_version: int
    command: c.AnyCommand
    device_id: str = ""
    device_time: str = ""


def creation(data: CreateRequest | ImportRequest, lang: str) -> Creation:
    """The new stream a create or an import body asks for."""
    match_id = data.match_id or uuid.uuid5(MATCH_IDS, str(data.command_id))
    if isinstance(data, ImportRequest):
        digest = command_digest("backgammon.import", match_id, data.text)
        return Creation(match_id, imported(match_id, data.text, lang), digest, meta=_MAT)
    command = c.CreateMatch(
        match_id=str(match_id),
        player_a=data.player_a,
        player_b=data.player_b,
        length=data.length,
        clock=data.clock,
        penalty_to_score=data.penalty_to_score,
        series=data.series,
        table=data.table,
    )
    events = tuple(decide(initial_state(), command))
    digest = command_digest("backgammon.create", match_id, command)
    return Creation(match_id, events, digest, table=data.table)


_MAT = {"source": "mat"}


def imported(match_id: UUID, text: str, lang: str) -> tuple:
    """Every event the engine decides for a .mat match, or a refusal that says what it
    refuses in the reader's words: the text that is not a move or a point, or the rules'
    own refusal of a record, with its line."""
    try:
        state, events = initial_state(), []
        for command in import_mat(text, str(match_id)):
            batch = decide(state, command)
            for event in batch:
                state = evolve(state, event)
            events += batch
        return tuple(events)
    except MatFormatError as exc:
        raise _refused(exc, lang) from None


def _refused(exc: MatFormatError, lang: str) -> Exception:
    if exc.rule:  # a record the rules refuse: the paragraph and its words, line and game
        why = (refusal(lang, exc.code, exc.params) if lang != "en" else None) or exc.message
        where = {**exc.params, "line": exc.line, "game": exc.game, "why": why, "refused": exc.code}
        return RuleViolation(exc.rule, str(exc), "text", "mat_refused", where)
    figures = {"line": exc.line, **exc.params}
    return HTTPException(
        status_code=422,
        detail=refusal("en", exc.code, figures) or f"Not a .mat match: {exc}",
        extra=coded(exc.code, **figures),
    )


async def prepared(request, principal: Principal, match_id: UUID, command: c.Command):
    """The command as its recorder stands behind it: the TD who rules is the one signed in,
    the jury the event's people as it knows them (KSI 1.3.2), a correction bounded by how its
    competition stands (KSI 4.6)."""
    if isinstance(command, c.GiveRuling):
        command = msgspec.structs.replace(command, td=principal.name)
    if isinstance(command, c.DecideAppeal) and not command.td:  # nor the one recording it
        command = msgspec.structs.replace(command, td=principal.name)
    if isinstance(command, c.DecideAppeal):
        pool = context(request.app.state).pool
        jury = jurors_of_event(command.jury, await event_people(pool))
        command = msgspec.structs.replace(command, jury=jury)
    if isinstance(command, c.CorrectResult):
        state = request.app.state
        command = await anyio.to_thread.run_sync(_as_it_stands, state, match_id, command)
    return command


def _as_it_stands(state, match_id: UUID, command: c.CorrectResult):
    """A correction with its competition's facts (next round started, results published)."""
    stored = context(state).store.read(match_id)
    comp_id, competitions = competition_of(stored), getattr(state, "competitions", None)
    if comp_id is None or competitions is None:
        return command
    try:
        _, competition = competitions.service.state(comp_id)
    except CompetitionNotFound:
        return command
    return correction_bounds(command, stored, competition)


def decide_on(played: Played, command: c.Command, principal: Principal | None) -> tuple:
    """The command's events (an undo of "the last entry" resolved to its version; a table
    device's undo held to its own entries)."""
    if isinstance(command, c.CreateMatch):
        raise MatchNotFound("a match is created by POST /api/backgammon/matches")
    state, commands = played.state, played.commands
    if isinstance(command, c.UndoLast) and command.to_version < 0:
        pairs = zip(commands, played.events, strict=True)
        undone = {v for v, e in pairs if type(e) is EntryUndone}
        command = c.UndoLast(to_version=last_entry_start(state, commands, undone))
    if isinstance(command, c.UndoLast) and principal is not None:
        pairs = zip(commands, played.events, strict=True)
        undo_checker(principal)([e for v, e in pairs if v > command.to_version])
    return decide(state, command)
