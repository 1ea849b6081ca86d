"""Events: what happened at the board, past tense, frozen; each cites its paragraph in `rule`.

Positions travel as (side A, side B), each 26 counts in that side's own numbering (board.py).
"""

from __future__ import annotations

from typing import Literal, Union

import msgspec

SideName = Literal["A", "B"]
Kind = Literal["single", "gammon", "backgammon"]
EndedBy = Literal["play", "drop", "concession"]
Sides = tuple[tuple[int, ...], tuple[int, ...]]


class Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """Base of every event; `rule` cites the paragraph that decided it."""

    rule: str = ""


class MatchCreated(Event, tag="BgMatchCreated", frozen=True):
    match_id: str
    player_a: str
    player_b: str
    length: int
    clock: bool = False
    penalty_to_score: bool = True  # lateness penalty points credited to the opponent's score
    series: bool = False
    table: int = 0  # the hall's table (0: none)
    other_rules: bool = False  # imported history played under other rules (no KSI citation)


class GameStarted(Event, tag="BgGameStarted", frozen=True):
    game_no: int
    score: tuple[int, int]
    crawford: bool
    position: Sides


class OpeningRolled(Event, tag="BgOpeningRolled", frozen=True):
    die_a: int
    die_b: int
    starter: str  # "" on a tie: both roll again


class DiceRolled(Event, tag="BgDiceRolled", frozen=True):
    side: SideName
    dice: tuple[int, int]
    early: bool = False  # before the opponent finished his move (KSI 4.1.5.1)


class InvalidRoll(Event, tag="BgInvalidRoll", frozen=True):
    side: SideName
    reason: str


class RerollRequired(Event, tag="BgRerollRequired", frozen=True):
    side: SideName  # the early roller, who rolls again


class PlayRecorded(Event, tag="BgPlayRecorded", frozen=True):
    side: SideName
    dice: tuple[int, int]
    moves: tuple[tuple[int, int], ...]
    legal: bool
    position: Sides  # after the play


class IllegalPlayAccepted(Event, tag="BgIllegalPlayAccepted", frozen=True):
    side: SideName  # who accepted it


class IllegalPlayCorrected(Event, tag="BgIllegalPlayCorrected", frozen=True):
    side: SideName  # who demanded the correction
    position: Sides  # restored: the mover plays the same dice again


class SetupCorrected(Event, tag="BgSetupCorrected", frozen=True):
    position: Sides


class SetupStands(Event, tag="BgSetupStands", frozen=True):
    pass


class DoubleOffered(Event, tag="BgDoubleOffered", frozen=True):
    side: SideName
    value: int  # the value the cube goes to
    shown: int = 0  # the value the cube showed, when wrong (KSI 4.4.6)
    early: bool = False  # before the opponent finished his move (KSI 4.4.5)


class DoubleVoided(Event, tag="BgDoubleVoided", frozen=True):
    side: SideName


class DoubleTaken(Event, tag="BgDoubleTaken", frozen=True):
    side: SideName
    value: int


class DoubleDropped(Event, tag="BgDoubleDropped", frozen=True):
    side: SideName


class CubeValueCorrected(Event, tag="BgCubeValueCorrected", frozen=True):
    shown: int
    value: int


class ConcessionOffered(Event, tag="BgConcessionOffered", frozen=True):
    side: SideName
    kind: Literal["single", "gammon", "backgammon"]


class ConcessionDeclined(Event, tag="BgConcessionDeclined", frozen=True):
    side: SideName


class GameEnded(Event, tag="BgGameEnded", frozen=True):
    winner: SideName
    kind: Kind
    by: EndedBy
    cube: int
    points: int  # kind (1, 2, 3) x cube
    score: tuple[int, int]  # after the game


class MatchEnded(Event, tag="BgMatchEnded", frozen=True):
    winner: SideName
    score: tuple[int, int]


class ScoreSet(Event, tag="BgScoreSet", frozen=True):
    score: tuple[int, int]
    sheet_a: tuple[int, int] | None = None  # what each player's scoresheet said (KSI 4.7)
    sheet_b: tuple[int, int] | None = None


class PenaltyPoints(Event, tag="BgPenaltyPoints", frozen=True):
    side: SideName  # the penalised player
    points: int
    minutes: int
    score: tuple[int, int]  # after crediting the opponent
    reason: str = "start"  # start | pause (KSI 2.2.4) | slow play (KSI 2.3.1.2)


class ScoreConfirmed(Event, tag="BgScoreConfirmed", frozen=True):
    side: SideName  # whose scoresheet agrees with the record
    game_no: int  # after this game
    score: tuple[int, int]


class ResultReported(Event, tag="BgResultReported", frozen=True):
    side: SideName


class ResultConfirmed(Event, tag="BgResultConfirmed", frozen=True):
    pass


class PauseTaken(Event, tag="BgPauseTaken", frozen=True):
    side: SideName
    own: int  # pauses charged to the player taking it
    pooled: int = 0  # pauses the opponent adds to it (KSI 2.2.2)


class ClockStarted(Event, tag="BgClockStarted", frozen=True):
    at_ms: int  # device time
    remaining: tuple[int, int]  # ms each
    imposed: bool = False  # by the TD for slow play (KSI 2.3.1.1)


class ClockPressed(Event, tag="BgClockPressed", frozen=True):
    side: SideName
    at_ms: int
    remaining: tuple[int, int]  # after charging the presser


class ClockStopped(Event, tag="BgClockStopped", frozen=True):
    case: int  # 1..8 (KSI 4.3.2.x)
    at_ms: int
    remaining: tuple[int, int]


class ClockResumed(Event, tag="BgClockResumed", frozen=True):
    at_ms: int
    side: str = ""  # whose time runs now ("" unchanged)


class TimeAdded(Event, tag="BgTimeAdded", frozen=True):
    side: SideName
    ms: int  # negative: a time penalty


class FlagFell(Event, tag="BgFlagFell", frozen=True):
    side: SideName
    at_ms: int
    gin: bool = False  # certain to win the match all the same (KSI 4.3.3)


class ClockAbandoned(Event, tag="BgClockAbandoned", frozen=True):
    pass


class ForcedWait(Event, tag="BgForcedWait", frozen=True):
    """Dice picked up early: the offender's time runs from `at_ms` and he may complete his
    move only `ms` later (KSI 4.1.5.2)."""

    side: SideName  # the offender
    at_ms: int
    ms: int


class TDCalled(Event, tag="BgTDCalled", frozen=True):
    side: str  # who called ("" the TD himself or a monitor)
    reason: str


class RulingGiven(Event, tag="BgRulingGiven", frozen=True):
    text: str  # the ruling with its reasons (reported to KSI, 5.6)
    favours: str = ""  # the side the ruling favours, if either
    testimony: tuple[str, ...] = ()  # who was heard (KSI 5.4)
    td: str = ""  # the TD who ruled (never on the jury, KSI 1.3.2)


class AppealLodged(Event, tag="BgAppealLodged", frozen=True):
    side: SideName


class AppealDecided(Event, tag="BgAppealDecided", frozen=True):
    jury: tuple[str, ...]
    overturn_votes: int
    overturned: bool
    reasons: str = ""  # the jury's reasoning, for the report to KSI (KSI 5.6); "" not given


class ObjectionLodged(Event, tag="BgObjectionLodged", frozen=True):
    """A formal objection to the jury's findings, lodged with KSI with its grounds (KSI 5.5)."""

    side: str
    grounds: str


class RulingOverturned(Event, tag="BgRulingOverturned", frozen=True):
    """The jury overturned the ruling: board, dice, cube, score and clocks return to what they
    were when the TD was called (KSI 5.2); what the decision orders follows as its own events."""

    to_version: int


class TestimonyRecorded(Event, tag="BgTestimonyRecorded", frozen=True):
    """Testimony or an argument heard by the TD or the jury (KSI 5.4)."""

    witness: str
    text: str


class MonitorReported(Event, tag="BgMonitorReported", frozen=True):
    """The monitor's report of a breach of the rules he watched for (KSI 1.3.3, 1.7.4)."""

    name: str
    text: str


class MonitorAppointed(Event, tag="BgMonitorAppointed", frozen=True):
    name: str
    requested_by: str = ""  # "" on the TD's own initiative


class SpectatorsBarred(Event, tag="BgSpectatorsBarred", frozen=True):
    """At a player's request the TD bars spectators from the match (KSI 1.6.4)."""

    requested_by: SideName


class SpectatorsAdmitted(Event, tag="BgSpectatorsAdmitted", frozen=True):
    """The bar of KSI 1.6.4 lifted."""


class PlayerExpelled(Event, tag="BgPlayerExpelled", frozen=True):
    side: SideName
    reason: str
    ground: str = "conduct"  # conduct (KSI 1.2.4), aids (1.7.3), equipment (1.2.3.2)


class EntryUndone(Event, tag="BgEntryUndone", frozen=True):
    to_version: int  # the state returns to what it was after this version


class ClockSet(Event, tag="BgClockSet", frozen=True):
    at_ms: int
    remaining: tuple[int, int]


class LeftOfBarPermitted(Event, tag="BgLeftOfBarPermitted", frozen=True):
    side: SideName


class LeftOfBarEnded(Event, tag="BgLeftOfBarEnded", frozen=True):
    side: SideName


class DiceExchanged(Event, tag="BgDiceExchanged", frozen=True):
    side: SideName


class ResultCorrected(Event, tag="BgResultCorrected", frozen=True):
    winner: SideName
    score: tuple[int, int]
    reason: str


class TableChanged(Event, tag="BgTableChanged", frozen=True):
    """The match moved to another table before its first game (decision 0207): that table's
    device records it now, the one it left no longer does."""

    table: int
    from_table: int


AnyEvent = Union[  # noqa: UP007
    MatchCreated,
    TableChanged,
    GameStarted,
    OpeningRolled,
    DiceRolled,
    InvalidRoll,
    RerollRequired,
    PlayRecorded,
    IllegalPlayAccepted,
    IllegalPlayCorrected,
    SetupCorrected,
    SetupStands,
    DoubleOffered,
    DoubleVoided,
    DoubleTaken,
    DoubleDropped,
    CubeValueCorrected,
    ConcessionOffered,
    ConcessionDeclined,
    GameEnded,
    MatchEnded,
    ScoreSet,
    PenaltyPoints,
    ResultReported,
    ScoreConfirmed,
    ResultConfirmed,
    PauseTaken,
    ClockStarted,
    ClockPressed,
    ClockStopped,
    ClockResumed,
    TimeAdded,
    FlagFell,
    ClockAbandoned,
    TDCalled,
    RulingGiven,
    AppealLodged,
    AppealDecided,
    RulingOverturned,
    TestimonyRecorded,
    MonitorReported,
    ForcedWait,
    MonitorAppointed,
    SpectatorsBarred,
    SpectatorsAdmitted,
    PlayerExpelled,
    EntryUndone,
    ClockSet,
    LeftOfBarPermitted,
    LeftOfBarEnded,
    DiceExchanged,
    ResultCorrected,
    ObjectionLodged,
]
EVENT_TYPES: tuple[type, ...] = AnyEvent.__args__  # type: ignore[attr-defined]
