"""Commands the service accepts besides the engine's: calling a match's players, closing a
match that will not be finished (to free its table)."""

from __future__ import annotations

from typing import Annotated, Union

import msgspec

from tableside.disciplines.korona import commands as rc


class CallPlayers(
    msgspec.Struct,
    forbid_unknown_fields=True,
    frozen=True,
    kw_only=True,
    tag_field="type",
    tag="CallPlayers",
):
    """Call the match's players to its table."""

    at: str = ""


class CloseMatch(
    msgspec.Struct,
    forbid_unknown_fields=True,
    frozen=True,
    kw_only=True,
    tag_field="type",
    tag="CloseMatch",
):
    """The head judge closes a match that will not be finished (players gone, entered on the
    wrong table): MatchAbandoned with the head judge's words, and its table is free."""

    note: Annotated[str, msgspec.Meta(min_length=1, max_length=200)]
    at: str = ""


# Everything a judge or the head judge may post to an existing match: the engine's own command
# structs (one source of truth) except CreateMatch, which has its own endpoint.
MATCH_COMMAND_TYPES: tuple[type, ...] = (
    CallPlayers,
    CloseMatch,
    *(t for t in rc.COMMAND_TYPES if t is not rc.CreateMatch),
)
MatchCommand = Union[MATCH_COMMAND_TYPES]  # noqa: UP007

STAFF_ONLY = frozenset({CallPlayers})
HEAD_JUDGE_ONLY = frozenset({rc.CorrectDecision, CloseMatch})
