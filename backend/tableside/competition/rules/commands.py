"""Competition commands: what the head judge, the secretary and the match streams ask for."""

from typing import Annotated

import msgspec

from .entrants import Person
from .guide import Guide
from .results import MatchResult
from .teams import Team


class CreateCompetition(
    msgspec.Struct, forbid_unknown_fields=True, frozen=True, tag="CreateCompetition"
):
    guide: Guide
    at: str


class AmendGuide(msgspec.Struct, forbid_unknown_fields=True, frozen=True, tag="AmendGuide"):
    """A wrong guide mended while nobody has entered under it (EKML §3(4), §3(5))."""

    guide: Guide
    at: str = ""


class RemoveCompetition(
    msgspec.Struct, forbid_unknown_fields=True, frozen=True, tag="RemoveCompetition"
):
    """A competition nobody entered taken off the list (a guide made by mistake)."""

    at: str = ""


class RegisterEntrant(
    msgspec.Struct, forbid_unknown_fields=True, frozen=True, tag="RegisterEntrant"
):
    entrant_id: str
    name: str
    members: tuple[Person, ...]
    at: str
    team: Team | None = None
    # The head judge admits an entry after the window closed, before the draw (EKML §12(2)).
    admitted_late: bool = False


class RenameEntrant(msgspec.Struct, forbid_unknown_fields=True, frozen=True, tag="RenameEntrant"):
    """A typo mended: the entrant's name and members, checked as at registration (EKML §8)."""

    entrant_id: str
    name: str
    members: tuple[Person, ...]
    at: str = ""


class ApproveEntrant(msgspec.Struct, forbid_unknown_fields=True, frozen=True, tag="ApproveEntrant"):
    entrant_id: str
    at: str = ""  # every command may carry `at`; the server stamps its own clock


class CheckInEntrant(msgspec.Struct, forbid_unknown_fields=True, frozen=True, tag="CheckInEntrant"):
    entrant_id: str
    at: str


class WithdrawEntrant(
    msgspec.Struct, forbid_unknown_fields=True, frozen=True, tag="WithdrawEntrant"
):
    entrant_id: str
    at: str


class MakeDraw(msgspec.Struct, forbid_unknown_fields=True, frozen=True, tag="MakeDraw"):
    """The head judge's draw (EKML §12(2)2) from a recorded seed."""

    seed: int
    at: str
    # The head judge draws before the guide's draw time (EKML §12(2)2: the draw is theirs).
    early: bool = False


class PairNextRound(msgspec.Struct, forbid_unknown_fields=True, frozen=True, tag="PairNextRound"):
    seed: int
    at: str = ""  # every command may carry `at`; the server stamps its own clock


class ImportRound(msgspec.Struct, forbid_unknown_fields=True, frozen=True, tag="ImportRound"):
    """A round paired elsewhere (e.g. Swiss Master), boards as (a, b or None, table)."""

    boards: tuple[tuple[str, str | None, int | None], ...]
    at: str


class DrawPlayoff(msgspec.Struct, forbid_unknown_fields=True, frozen=True, tag="DrawPlayoff"):
    at: str


class CallMatch(msgspec.Struct, forbid_unknown_fields=True, frozen=True, tag="CallMatch"):
    """A match to a table; a team match to a block: `table` is board I's and the boards
    follow on the next tables, or `tables` lists every board's table (board I first);
    `absent` names board players of either team replaced by substitutes for this match."""

    match_id: str
    table: int
    at: str
    tables: tuple[int, ...] = ()
    absent: tuple[str, ...] = ()


class CallNextMatches(
    msgspec.Struct, forbid_unknown_fields=True, frozen=True, tag="CallNextMatches"
):
    """The waiting matches to the free tables; `kept` pairs a match with the one table it is
    kept for (the demo's match for a visitor): it goes there when that table is free, else
    waits, and no other match takes that table."""

    free_tables: tuple[int, ...]
    at: str
    kept: tuple[tuple[str, int], ...] = ()


class MoveMatch(msgspec.Struct, forbid_unknown_fields=True, frozen=True, tag="MoveMatch"):
    """A called match not yet started moved to another free table (its table broke, the hall
    was rearranged): `reason` says why; `by` is the signed-in TD's, stamped by the server
    (decision 0207)."""

    match_id: str
    table: Annotated[int, msgspec.Meta(ge=1, le=200)]
    reason: Annotated[str, msgspec.Meta(max_length=300)]
    at: str = ""
    by: str = ""


class ReportNoShow(msgspec.Struct, forbid_unknown_fields=True, frozen=True, tag="ReportNoShow"):
    match_id: str
    absent: str
    at: str


class ConfirmForfeit(msgspec.Struct, forbid_unknown_fields=True, frozen=True, tag="ConfirmForfeit"):
    """The head judge confirms a reported no-show as a lost match (EKML §9(3))."""

    match_id: str
    at: str


class RecordResult(msgspec.Struct, forbid_unknown_fields=True, frozen=True, tag="RecordResult"):
    match_id: str
    result: MatchResult
    at: str


class RecordBoardResult(
    msgspec.Struct, forbid_unknown_fields=True, frozen=True, tag="RecordBoardResult"
):
    match_id: str
    board: int
    result: MatchResult
    at: str


class RuleAtTimeCap(msgspec.Struct, forbid_unknown_fields=True, frozen=True, tag="RuleAtTimeCap"):
    """The head judge's ruling when the round time is up: finished games and pucks left."""

    match_id: str
    a_games: int
    b_games: int
    a_pucks_left: int
    b_pucks_left: int
    at: str


class FileProtest(msgspec.Struct, forbid_unknown_fields=True, frozen=True, tag="FileProtest"):
    protest_id: str
    match_id: str
    by: str
    rule_cited: str
    text: str
    appealed_at_once: bool
    at: str


class DecideProtest(msgspec.Struct, forbid_unknown_fields=True, frozen=True, tag="DecideProtest"):
    protest_id: str
    upheld: bool
    note: str
    at: str
    corrected: MatchResult | None = None


class CorrectResult(msgspec.Struct, forbid_unknown_fields=True, frozen=True, tag="CorrectResult"):
    match_id: str
    result: MatchResult
    reason: str
    at: str


class CorrectBoardResult(
    msgspec.Struct, forbid_unknown_fields=True, frozen=True, tag="CorrectBoardResult"
):
    """One board of a team match corrected (its protocol was); the team result follows."""

    match_id: str
    board: int
    result: MatchResult
    reason: str
    at: str


class SetTableCount(msgspec.Struct, forbid_unknown_fields=True, frozen=True, tag="SetTableCount"):
    """How many tables the hall has for this competition: the console's table cards, kept on
    the server so every TD's laptop shows the same (issue 54)."""

    count: Annotated[int, msgspec.Meta(ge=1, le=200)]
    at: str = ""


class CorrectPublished(
    msgspec.Struct, forbid_unknown_fields=True, frozen=True, tag="CorrectPublished"
):
    """A published event's entry name corrected (a typo found at the prize-giving): a new
    edition of the results, the earlier one kept and marked superseded (decision 0191).
    `by` is the signed-in head judge's, stamped by the server."""

    entrant_id: str
    name: str
    members: tuple[Person, ...]
    reason: str
    at: str = ""
    by: str = ""


class FinishCompetition(
    msgspec.Struct, forbid_unknown_fields=True, frozen=True, tag="FinishCompetition"
):
    at: str


COMMAND_TYPES = (
    CreateCompetition,
    AmendGuide,
    RemoveCompetition,
    RegisterEntrant,
    RenameEntrant,
    ApproveEntrant,
    CheckInEntrant,
    WithdrawEntrant,
    MakeDraw,
    PairNextRound,
    ImportRound,
    DrawPlayoff,
    CallMatch,
    CallNextMatches,
    MoveMatch,
    ReportNoShow,
    ConfirmForfeit,
    RecordResult,
    RecordBoardResult,
    RuleAtTimeCap,
    FileProtest,
    DecideProtest,
    CorrectResult,
    CorrectBoardResult,
    FinishCompetition,
    CorrectPublished,
    SetTableCount,
)
