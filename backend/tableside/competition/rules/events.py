"""Competition events: frozen msgspec Structs, past tense, tagged by their stable type name."""

import msgspec

from .brackets import Bracket
from .entrants import Person
from .guide import Guide, upcast
from .results import MatchResult
from .teams import Team


class Pairing(msgspec.Struct, frozen=True):
    """A match of a paired round; side `a` is listed first and has the opening shot."""

    match_id: str
    a: str
    b: str
    table: int | None = None


def _guide_upcast(raw: dict) -> dict:
    """An event holding a guide, read with the guide as today's (`guide.upcast`)."""
    return {**raw, "guide": upcast(raw.get("guide"))}


class CompetitionCreated(msgspec.Struct, frozen=True, tag="CompetitionCreated"):
    guide: Guide
    at: str

    upcast = staticmethod(_guide_upcast)  # read by the event registry before decoding


class GuideAmended(msgspec.Struct, frozen=True, tag="GuideAmended"):
    """The guide as mended before anyone entered (EKML §3(5))."""

    guide: Guide
    at: str
    rule: str = "EKML §3(5)"

    upcast = staticmethod(_guide_upcast)


class CompetitionRemoved(msgspec.Struct, frozen=True, tag="CompetitionRemoved"):
    """A competition nobody entered, taken off the list; its stream stays for the record."""

    at: str
    rule: str = "EKML §3(5)"


class EntrantRegistered(msgspec.Struct, frozen=True, tag="EntrantRegistered"):
    entrant_id: str
    name: str
    members: tuple[Person, ...]
    team: Team | None
    joined_round: int
    at: str
    admitted_late: bool = False  # by the head judge, after the window, before the draw


class EntrantRenamed(msgspec.Struct, frozen=True, tag="EntrantRenamed"):
    """A typo mended without a withdrawal (EKML §8(2): the entry is the same entrant's)."""

    entrant_id: str
    name: str
    members: tuple[Person, ...]
    at: str
    rule: str = "EKML §8(2)"


class EntrantApproved(msgspec.Struct, frozen=True, tag="EntrantApproved"):
    entrant_id: str


class EntrantCheckedIn(msgspec.Struct, frozen=True, tag="EntrantCheckedIn"):
    entrant_id: str
    at: str


class EntrantWithdrew(msgspec.Struct, frozen=True, tag="EntrantWithdrew"):
    entrant_id: str
    played: int
    total: int
    results_stand: bool
    rule: str
    at: str


class DrawMade(msgspec.Struct, frozen=True, tag="DrawMade"):
    seed: int
    order: tuple[str, ...]
    at: str
    early: bool = False  # the head judge drew before the guide's draw time (EKML §12(2)2)


class RoundPaired(msgspec.Struct, frozen=True, tag="RoundPaired"):
    round: int
    pairings: tuple[Pairing, ...]
    bye: str | None
    rule: str


class BracketDrawn(msgspec.Struct, frozen=True, tag="BracketDrawn"):
    seed: int
    bracket: Bracket
    rule: str


class PlayoffDrawn(msgspec.Struct, frozen=True, tag="PlayoffDrawn"):
    bracket: Bracket
    rule: str


class BoardCall(msgspec.Struct, frozen=True):
    """One board of a called team match on a table of its own, with its two players from
    the teams' lineups (EKML §29(2): board I, II, III… in ranking order)."""

    board: int
    table: int
    a: str
    b: str


class MatchCalled(msgspec.Struct, frozen=True, tag="MatchCalled"):
    """A match called to its table; a team match to a block of tables, one board on each
    (`table` is board I's; `boards` and `rule` are set for team matches only)."""

    match_id: str
    table: int
    a: str
    b: str
    at: str
    boards: tuple[BoardCall, ...] = ()
    rule: str = ""


class MatchMoved(msgspec.Struct, frozen=True, tag="MatchMoved"):
    """A called match moved from `from_table` to a free `table` before it started, by whom and
    why (EKML §17(3): the info judge calls the match to a free table; decision 0207)."""

    match_id: str
    from_table: int
    table: int
    reason: str
    by: str
    at: str
    rule: str = "EKML §17(3)"


class NoShowReported(msgspec.Struct, frozen=True, tag="NoShowReported"):
    match_id: str
    absent: str
    at: str
    rule: str


class ResultRecorded(msgspec.Struct, frozen=True, tag="ResultRecorded"):
    match_id: str
    a: str
    b: str
    result: MatchResult
    at: str
    rule: str = ""


class BoardResultRecorded(msgspec.Struct, frozen=True, tag="BoardResultRecorded"):
    match_id: str
    board: int
    result: MatchResult
    at: str


class BoardResultCorrected(msgspec.Struct, frozen=True, tag="BoardResultCorrected"):
    match_id: str
    board: int
    result: MatchResult
    reason: str
    at: str
    rule: str = "EKML §12(3)5"


class ResultCorrected(msgspec.Struct, frozen=True, tag="ResultCorrected"):
    match_id: str
    result: MatchResult
    reason: str
    at: str
    rule: str = "EKML §12(3)5"


class MatchInvalidated(msgspec.Struct, frozen=True, tag="MatchInvalidated"):
    match_id: str
    reason: str
    rule: str


class ProtestFiled(msgspec.Struct, frozen=True, tag="ProtestFiled"):
    protest_id: str
    match_id: str
    by: str
    rule_cited: str
    text: str
    at: str


class ProtestDecided(msgspec.Struct, frozen=True, tag="ProtestDecided"):
    protest_id: str
    upheld: bool
    note: str
    at: str
    rule: str = "EKML §12(2)3"


class CompetitionFinished(msgspec.Struct, frozen=True, tag="CompetitionFinished"):
    placings: tuple[tuple[str, ...], ...]
    at: str


class PublishedCorrected(msgspec.Struct, frozen=True, tag="PublishedCorrected"):
    """A published event corrected: its `edition` (2 for the first correction) supersedes
    the one before, which the store keeps; who corrected it, why, and what it said before
    (EKML §12(2)6: the head judge confirms the results; decision 0191)."""

    edition: int
    entrant_id: str
    name: str
    members: tuple[Person, ...]
    was_name: str
    reason: str
    by: str
    at: str
    rule: str = "EKML §12(2)6"


class TableCountSet(msgspec.Struct, frozen=True, tag="TableCountSet"):
    """The hall's number of tables for this competition, as the TD set it."""

    count: int
    at: str


EVENT_TYPES = (
    CompetitionCreated,
    GuideAmended,
    CompetitionRemoved,
    EntrantRegistered,
    EntrantRenamed,
    EntrantApproved,
    EntrantCheckedIn,
    EntrantWithdrew,
    DrawMade,
    RoundPaired,
    BracketDrawn,
    PlayoffDrawn,
    MatchCalled,
    MatchMoved,
    NoShowReported,
    ResultRecorded,
    BoardResultRecorded,
    BoardResultCorrected,
    ResultCorrected,
    MatchInvalidated,
    ProtestFiled,
    ProtestDecided,
    CompetitionFinished,
    PublishedCorrected,
    TableCountSet,
)

Event = (
    CompetitionCreated
    | EntrantRegistered
    | EntrantRenamed
    | EntrantApproved
    | EntrantCheckedIn
    | EntrantWithdrew
    | DrawMade
    | RoundPaired
    | BracketDrawn
    | PlayoffDrawn
    | MatchCalled
    | MatchMoved
    | NoShowReported
    | ResultRecorded
    | BoardResultRecorded
    | BoardResultCorrected
    | ResultCorrected
    | MatchInvalidated
    | ProtestFiled
    | ProtestDecided
    | CompetitionFinished
    | PublishedCorrected
    | TableCountSet
)
