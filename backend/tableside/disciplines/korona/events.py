"""Events: what happened at the table, past tense, frozen. The tag is the stable stored name.

A decided consequence carries `rule`, the paragraph that decided it. Every command's batch of
events starts with one *entry* event (see ENTRY_TYPES); an undo or a head-judge correction
removes or replaces a whole entry with its consequences.
"""

from __future__ import annotations

from typing import Union

import msgspec

from tableside.disciplines.korona.commands import StrokeFacts
from tableside.disciplines.korona.events_base import Event
from tableside.disciplines.korona.events_game import (
    DebtCancelled,
    DebtRecorded,
    FoulCommitted,
    GameAnnulled,
    GameEnded,
    GameSetUp,
    MatchEnded,
    NextTurnForfeited,
    OffenceDisregarded,
    OpponentPucksLeft,
    PenaltyAwarded,
    PenaltyPuckPlaced,
    PlayerRemoved,
    PucksRestored,
    PucksToCentre,
    RemainingGamesLost,
    RemarkGiven,
    RowMoved,
    SeriesStopped,
    StartPositionRestored,
    TimeLimitImposed,
    TurnKept,
    TurnPassed,
    TurnSkipped,
    WarningGiven,
)
from tableside.disciplines.korona.vocabulary import (
    CorrectionBy,
    FillSilences,
    Format,
    OpeningMethod,
    OpeningRule,
    RulesetName,
    Side,
    SideOrNone,
)

# --- entries: the first event of every command's batch -------------------------------------


class MatchCreated(Event, tag="MatchCreated", frozen=True):
    match_id: str
    ruleset: RulesetName
    fmt: Format
    side_a: tuple[str, ...]
    side_b: tuple[str, ...]
    games: int
    play_all: bool
    points: tuple[float, float, float]
    at: str = ""
    fill_silences: FillSilences = "ekml"  # old events: the EKML fill they were decided with
    opening: OpeningRule = ""  # the guide's opening (EKML §31(1)); old events: the table's


class OpeningShotAssigned(Event, tag="OpeningShotAssigned", frozen=True):
    method: OpeningMethod
    side: Side
    seats: tuple[str, ...]  # clockwise from the opening seat; singles: (opener, other)


class StrokeRecorded(Event, tag="StrokeRecorded", frozen=True):
    player: str
    side: Side
    facts: StrokeFacts
    legal: bool
    at: str = ""


class IncidentReported(Event, tag="IncidentReported", frozen=True):
    """A judge report outside a stroke: incident, remark, warning, time, pass, knock, debt."""

    kind: str  # incident | remark | warning | time | pass | table_knock | debt_forgotten
    code: str
    player: str = ""
    side: SideOrNone = ""
    pucks_moved: int = 0
    at: str = ""
    confirmed_by: str = ""  # the head judge who confirmed it (EKML §22(4))


class CorrectionRecorded(Event, tag="CorrectionRecorded", frozen=True):
    corrects_version: int
    by: CorrectionBy
    reason: str = ""
    replacement: tuple[AnyEvent, ...] = ()
    at: str = ""


class ProtocolSigned(Event, tag="ProtocolSigned", frozen=True):
    judge: str
    at: str = ""


ENTRY_LIST: tuple[type, ...] = (
    MatchCreated,
    OpeningShotAssigned,
    StrokeRecorded,
    IncidentReported,
    CorrectionRecorded,
    ProtocolSigned,
)

EVENT_TYPES: tuple[type, ...] = (
    *ENTRY_LIST,
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

ENTRY_TYPES: frozenset[type] = frozenset(ENTRY_LIST)

_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(AnyEvent)


def encode(event: Event) -> bytes:
    """JSON bytes of one event (with its `type` tag)."""
    return _encoder.encode(event)


def decode(data: bytes) -> Event:
    """One event back from JSON bytes, through the tagged union."""
    return _decoder.decode(data)
