"""API bodies of the competition endpoints; the domain's commands ride inside (`at` is set
by the server's clock, whatever the client sends)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, TypeAlias, Union
from uuid import UUID

import msgspec

from tableside.competition.rules import commands as cc
from tableside.competition.rules.entrants import Person
from tableside.competition.rules.guide import Guide, upcast
from tableside.competition.rules.teams import Team
from tableside.match.http.dto import Short, StoredEventOut, Version

# Everything but CreateCompetition, which has its own endpoint.
COMPETITION_COMMAND_TYPES: tuple[type, ...] = tuple(
    t for t in cc.COMMAND_TYPES if t is not cc.CreateCompetition
)
if TYPE_CHECKING:  # the union is built from the tuple at run time, which a checker cannot
    CompetitionCommand: TypeAlias = msgspec.Struct
else:
    CompetitionCommand = Union[COMPETITION_COMMAND_TYPES]  # noqa: UP007

HEAD_JUDGE_ONLY = frozenset(
    {
        cc.MakeDraw,
        cc.PairNextRound,
        cc.ImportRound,
        cc.DrawPlayoff,
        cc.ConfirmForfeit,
        cc.RecordResult,
        cc.RecordBoardResult,
        cc.RuleAtTimeCap,
        cc.DecideProtest,
        cc.CorrectResult,
        cc.CorrectBoardResult,
        cc.FinishCompetition,
        cc.CorrectPublished,
        cc.AmendGuide,
        cc.RemoveCompetition,
    }
)


class CreateCompetitionRequest(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A new competition from its guide; the id defaults to one derived from `command_id`."""

    command_id: UUID
    guide: Guide
    competition_id: UUID | None = None
    device_id: Short = ""

    @staticmethod
    def upcast(raw: Any) -> Any:
        """A guide as a client wrote it before decision 0149, read as today's."""
        return {**raw, "guide": upcast(raw.get("guide"))} if isinstance(raw, dict) else raw


class CompetitionCommandRequest(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """One command for a competition, at the version the sender last saw."""

    command_id: UUID
    expected_version: Version
    command: CompetitionCommand
    device_id: Short = ""

    @staticmethod
    def upcast(raw: Any) -> Any:
        """An AmendGuide's guide as a client wrote it before decision 0149, read as today's."""
        command = raw.get("command") if isinstance(raw, dict) else None
        if not isinstance(command, dict) or "guide" not in command:
            return raw
        return {**raw, "command": {**command, "guide": upcast(command["guide"])}}


class EntryLine(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """One line of an entry list to check: as a registration would carry it."""

    entrant_id: Annotated[str, msgspec.Meta(min_length=1, max_length=40)]
    name: Annotated[str, msgspec.Meta(max_length=200)]
    members: Annotated[tuple[Person, ...], msgspec.Meta(max_length=12)]
    team: Team | None = None
    admitted_late: bool = False


class EntryCheckRequest(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """An entry list, checked whole before anything of it is registered."""

    entrants: Annotated[tuple[EntryLine, ...], msgspec.Meta(min_length=1, max_length=512)]


class CompetitionCommandResponse(msgspec.Struct):
    """What a command stored; a retry (same command_id) gets exactly this again."""

    competition_id: UUID
    command_id: UUID
    first_version: int
    last_version: int
    positions: list[int]
    events: list[StoredEventOut]


def roles_for(command: object) -> tuple[str, ...]:
    """The draw, rulings, results and a late entry: head judge; entries, calls, no-shows,
    protests: also the secretary. Table judges never post to a competition."""
    if type(command) in HEAD_JUDGE_ONLY or getattr(command, "admitted_late", False):
        return ("head_judge",)  # a late entry is the head judge's to admit (EKML §12(2))
    return ("head_judge", "secretary")
