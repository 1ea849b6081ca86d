"""Korona's API bodies: msgspec structs kept apart from the domain (the engine's commands ride
inside)."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

import msgspec

from tableside.disciplines.korona.vocabulary import FillSilences, Format, RulesetName
from tableside.match.http.dto import Name, Short, Table, Version
from tableside.plugins.korona.commands import MatchCommand


class CreateMatchRequest(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Create a match on a table; `match_id` defaults to one derived from `command_id`."""

    command_id: UUID
    table: Table
    expected_version: Annotated[int, msgspec.Meta(ge=0, le=0)] = 0  # a new stream
    side_a: Annotated[tuple[Name, ...], msgspec.Meta(min_length=1, max_length=2)]
    side_b: Annotated[tuple[Name, ...], msgspec.Meta(min_length=1, max_length=2)]
    match_id: UUID | None = None
    competition_id: Annotated[str, msgspec.Meta(max_length=80)] = ""
    ruleset: RulesetName = "EKML"
    format: Format = "singles"
    games: Annotated[int, msgspec.Meta(ge=1, le=15)] = 1
    play_all: bool = False
    points: tuple[float, float, float] | None = None
    fill_silences: FillSilences = "ekml"  # LV's/NOVUS08's silences: the guide's choice
    at: Short = ""
    device_id: Short = ""
    device_time: Short = ""


class CommandRequest(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """One command for an existing match, at the version the sender last saw."""

    command_id: UUID
    expected_version: Version
    command: MatchCommand
    device_id: Short = ""
    device_time: Short = ""
