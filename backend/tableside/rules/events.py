"""Events: what happened at the table, past tense, frozen. The tag is the stable stored name.

A decided consequence carries `rule`, the paragraph that decided it. Every command's batch of
events starts with one *entry* event (see ENTRY_TYPES); an undo or a head-judge correction
removes or replaces a whole entry with its consequences.
"""

from __future__ import annotations

from typing import Union

import msgspec

from tableside.rules.commands import StrokeFacts
from tableside.rules.vocabulary import (
    Card,
    CorrectionBy,
    Format,
    OpeningMethod,
    RulesetName,
    Side,
    SideOrNone,
    Spot,
)


class Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """Base of every event; `rule` cites the paragraph that decided it ("" for plain facts)."""

    rule: str = ""


# --- entries: the first event of every command's batch -------------------------------------


class MatchCreated(Event, tag="MatchCreated"):
    match_id: str
    ruleset: RulesetName
    fmt: Format
    side_a: tuple[str, ...]
    side_b: tuple[str, ...]
    games: int
    play_all: bool
    points: tuple[float, float, float]
    at: str = ""


class OpeningShotAssigned(Event, tag="OpeningShotAssigned"):
    method: OpeningMethod
    side: Side
    seats: tuple[str, ...]  # clockwise from the opening seat; singles: (opener, other)


class StrokeRecorded(Event, tag="StrokeRecorded"):
    player: str
    side: Side
    facts: StrokeFacts
    legal: bool
    at: str = ""


class IncidentReported(Event, tag="IncidentReported"):
    """A judge report outside a stroke: incident, remark, warning, time, pass, knock, debt."""

    kind: str  # incident | remark | warning | time | pass | table_knock | debt_forgotten
    code: str
    player: str = ""
    side: SideOrNone = ""
    pucks_moved: int = 0
    at: str = ""


class CorrectionRecorded(Event, tag="CorrectionRecorded"):
    corrects_version: int
    by: CorrectionBy
    reason: str = ""
    replacement: tuple[AnyEvent, ...] = ()
    at: str = ""


class ProtocolSigned(Event, tag="ProtocolSigned"):
    judge: str
    at: str = ""


# --- consequences -------------------------------------------------------------------------


class GameSetUp(Event, tag="GameSetUp"):
    game_no: int
    seats: tuple[str, ...]
    opener: str
    replay: bool = False


class StartPositionRestored(Event, tag="StartPositionRestored"):
    game_no: int


class FoulCommitted(Event, tag="FoulCommitted"):
    player: str
    code: str


class OffenceDisregarded(Event, tag="OffenceDisregarded"):
    player: str
    code: str


class PenaltyAwarded(Event, tag="PenaltyAwarded"):
    side: Side
    player: str  # the punished player: the penalty goes to the zone opposite him


class PenaltyPuckPlaced(Event, tag="PenaltyPuckPlaced"):
    side: Side
    player: str
    spot: Spot
    from_debt: bool = False


class DebtRecorded(Event, tag="DebtRecorded"):
    side: Side
    player: str


class DebtCancelled(Event, tag="DebtCancelled"):
    side: Side
    count: int


class PucksRestored(Event, tag="PucksRestored"):
    side: Side
    count: int
    from_pocket: int = 0  # of those, how many come back out of a pocket
    what: str = ""


class PucksToCentre(Event, tag="PucksToCentre"):
    side: Side
    count: int
    first_touched: bool = False  # the one the striker touched first goes to the centre point


class OpponentPucksLeft(Event, tag="OpponentPucksLeft"):
    side: Side
    count: int
    what: str = ""


class TurnKept(Event, tag="TurnKept"):
    player: str


class TurnPassed(Event, tag="TurnPassed"):
    player: str
    to: str
    stalemate: int = 0  # successive turns with pucks only in the centre circle, none touched


class TurnSkipped(Event, tag="TurnSkipped"):
    player: str


class NextTurnForfeited(Event, tag="NextTurnForfeited"):
    player: str


class SeriesStopped(Event, tag="SeriesStopped"):
    player: str
    turn_lost: bool = False  # the clearing stroke would have lost the turn (EKML §27(6))


class RowMoved(Event, tag="RowMoved"):
    player: str  # the pucks set out opposite this player have left the start position


class RemarkGiven(Event, tag="RemarkGiven"):
    player: str
    side: Side
    reason: str
    count: int  # the side's remarks in this match (a pair counts jointly)


class TimeLimitImposed(Event, tag="TimeLimitImposed"):
    side: Side


class WarningGiven(Event, tag="WarningGiven"):
    player: str
    side: Side
    card: Card


class GameEnded(Event, tag="GameEnded"):
    game_no: int
    winner: Side
    reason: str


class GameAnnulled(Event, tag="GameAnnulled"):
    game_no: int
    reason: str
    swap: bool = False  # 8+8: sides and opening swapped for the replay


class RemainingGamesLost(Event, tag="RemainingGamesLost"):
    side: Side
    games: int


class PlayerRemoved(Event, tag="PlayerRemoved"):
    player: str
    side: Side
    scope: str  # "match" | "competition"


class MatchEnded(Event, tag="MatchEnded"):
    winner: SideOrNone
    games_a: int
    games_b: int
    points_a: float
    points_b: float
    reason: str
    forfeit: bool = False


EVENT_TYPES: tuple[type, ...] = (
    MatchCreated,
    OpeningShotAssigned,
    StrokeRecorded,
    IncidentReported,
    CorrectionRecorded,
    ProtocolSigned,
    GameSetUp,
    StartPositionRestored,
    FoulCommitted,
    OffenceDisregarded,
    PenaltyAwarded,
    PenaltyPuckPlaced,
    DebtRecorded,
    DebtCancelled,
    PucksRestored,
    PucksToCentre,
    OpponentPucksLeft,
    TurnKept,
    TurnPassed,
    TurnSkipped,
    NextTurnForfeited,
    SeriesStopped,
    RowMoved,
    RemarkGiven,
    TimeLimitImposed,
    WarningGiven,
    GameEnded,
    GameAnnulled,
    RemainingGamesLost,
    PlayerRemoved,
    MatchEnded,
)

AnyEvent = Union[EVENT_TYPES]  # noqa: UP007 - a runtime union of the tuple for msgspec

ENTRY_TYPES: frozenset[type] = frozenset(
    {
        MatchCreated,
        OpeningShotAssigned,
        StrokeRecorded,
        IncidentReported,
        CorrectionRecorded,
        ProtocolSigned,
    }
)

_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(AnyEvent)


def encode(event: Event) -> bytes:
    """JSON bytes of one event (with its `type` tag)."""
    return _encoder.encode(event)


def decode(data: bytes) -> Event:
    """One event back from JSON bytes, through the tagged union."""
    return _decoder.decode(data)
