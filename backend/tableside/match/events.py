"""Venue events of a match stream: facts the rules engine does not model."""

from __future__ import annotations

import msgspec


class MatchScheduled(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="MatchScheduled"
):
    """The match is put on a table (and into a competition); stored right after MatchCreated,
    and again when a called match is moved to another table (`moved_from`: the table it left,
    decision 0207)."""

    table: int
    competition_id: str = ""
    at: str = ""
    board: int = 0  # a team match's board (EKML §29(2)) when it is one; 0 otherwise
    moved_from: int = 0  # the table a moved match left; 0: its first table


class PlayersCalled(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="PlayersCalled"
):
    """The players were called to their table."""

    table: int
    at: str = ""


class MatchAbandoned(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="MatchAbandoned"
):
    """The match was given up unfinished (e.g. cut off by a restart of the demo): nothing more
    is recorded in it; `reason` says why."""

    reason: str
    at: str = ""
    note: str = ""  # the head judge's words when they closed it (CloseMatch)
    # a forfeit the competition decided: the side it gave the match to ("a" or "b"; issue
    # 54: a no-show's card showed no winner), "" for any other reason
    won_by: str = ""


VENUE_EVENT_TYPES: tuple[type, ...] = (MatchScheduled, PlayersCalled, MatchAbandoned)
