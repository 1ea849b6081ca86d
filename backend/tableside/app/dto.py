"""API bodies: msgspec structs kept apart from the domain (the engine's commands ride inside)."""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

import msgspec

from tableside.matches.commands import MatchCommand
from tableside.rules.vocabulary import Format, RulesetName

Name = Annotated[str, msgspec.Meta(min_length=1, max_length=80)]
Version = Annotated[int, msgspec.Meta(ge=0, le=10**9)]
Table = Annotated[int, msgspec.Meta(ge=1, le=9999)]
Short = Annotated[str, msgspec.Meta(max_length=200)]


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


class StoredEventOut(msgspec.Struct):
    """An event as stored by a command."""

    version: int
    position: int
    type: str
    event: msgspec.Raw


class CommandResponse(msgspec.Struct):
    """What a command stored; a retry (same command_id) gets exactly this again."""

    match_id: UUID
    command_id: UUID
    first_version: int
    last_version: int
    positions: list[int]
    events: list[StoredEventOut]


class LoginRequest(msgspec.Struct, forbid_unknown_fields=True):
    """Staff login."""

    username: Name
    password: Annotated[str, msgspec.Meta(max_length=200)]


class LoginResponse(msgspec.Struct):
    """A bearer token for `Authorization: Bearer …`."""

    token: str
    username: str
    role: str
    expires_at: str


class JudgeTokenResponse(msgspec.Struct):
    """A table judge's token, its link and the link as QR images."""

    token_id: UUID
    token: str
    table: int
    link: str
    qr_svg: str
    qr_png: str


class AccountRequest(msgspec.Struct, forbid_unknown_fields=True):
    """A new staff account (head judge only)."""

    username: Name
    role: Annotated[str, msgspec.Meta(pattern="^(head_judge|secretary|auditor)$")]
    password: Annotated[str, msgspec.Meta(min_length=8, max_length=200)]


Doc = dict[str, Any]
