"""Commands: what the recorder (a player, the monitor or the TD) reports. Tagged by `type`."""

from __future__ import annotations

from typing import Literal, Union

import msgspec

SideName = Literal["A", "B"]
Sides = tuple[tuple[int, ...], tuple[int, ...]]


class Command(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    pass


class CreateMatch(Command, tag="CreateMatch", frozen=True):
    match_id: str
    player_a: str
    player_b: str
    length: int
    clock: bool = False
    penalty_to_score: bool = True  # a guide setting: how penalty points enter the score
    series: bool = False  # one of a series of short matches: pauses between matches only
    table: int = 0  # the hall's table it is played on (0: none); its table's device records
    other_rules: bool = False  # history from another event, not played under the KSI rules


class StartGame(Command, tag="StartGame", frozen=True):
    position: Sides | None = None  # the set-up as laid out, when it is not the standard one


class RollOpening(Command, tag="RollOpening", frozen=True):
    die_a: int
    die_b: int


class Roll(Command, tag="Roll", frozen=True):
    side: SideName
    dice: tuple[int, int] = (0, 0)
    invalid: str = ""  # why the roll is invalid: cocked, off the board, left of the bar ...
    left_of_bar: bool = False  # landed left of the bar: valid only with permission (4.1.4.1)


class RequireReroll(Command, tag="RequireReroll", frozen=True):
    side: SideName  # the player who was still moving when the opponent rolled


class Play(Command, tag="Play", frozen=True):
    side: SideName
    moves: tuple[tuple[int, int], ...] = ()  # (from, to), own numbering, 25 bar, 0 off


class AcceptIllegalPlay(Command, tag="AcceptIllegalPlay", frozen=True):
    side: SideName


class CorrectIllegalPlay(Command, tag="CorrectIllegalPlay", frozen=True):
    side: SideName


class ReportWrongSetup(Command, tag="ReportWrongSetup", frozen=True):
    position: Sides | None = None  # the corrected set-up; None: the standard one


class Double(Command, tag="Double", frozen=True):
    side: SideName
    shown: int = 0  # the value the cube was turned to, when it is not the right one


class Take(Command, tag="Take", frozen=True):
    side: SideName


class Drop(Command, tag="Drop", frozen=True):
    side: SideName
    at_ms: int = 0  # with a running clock: the device time it is stopped at (KSI 4.4.3)


class Concede(Command, tag="Concede", frozen=True):
    side: SideName
    kind: Literal["single", "gammon", "backgammon"] = "single"


class AnswerConcession(Command, tag="AnswerConcession", frozen=True):
    side: SideName
    accept: bool


class AgreeResult(Command, tag="AgreeResult", frozen=True):
    """Players agreeing a game's or the match's result: never allowed (KSI 4.5)."""

    winner: SideName
    points: int = 1
    match: bool = False


class ResolveScoreDispute(Command, tag="ResolveScoreDispute", frozen=True):
    sheet_a: tuple[int, int]  # the score on A's scoresheet
    sheet_b: tuple[int, int]


class RecordLateness(Command, tag="RecordLateness", frozen=True):
    side: SideName
    minutes: int  # late at the start, or over the pause (KSI 2.2.4)
    reason: Literal["start", "pause"] = "start"


class PenaliseSlowPlay(Command, tag="PenaliseSlowPlay", frozen=True):
    side: SideName
    points: int = 1  # the number is the TD's (KSI 2.3.1.2 does not state it)


class SetClock(Command, tag="SetClock", frozen=True):
    """A broken clock replaced: the TD sets the new one (KSI 3.7.2)."""

    at_ms: int
    remaining: tuple[int, int]  # ms each


class PermitLeftOfBar(Command, tag="PermitLeftOfBar", frozen=True):
    side: SideName  # the player the opponent allows to roll left of the bar


class EndLeftOfBar(Command, tag="EndLeftOfBar", frozen=True):
    side: SideName  # he announces he rolls right of the bar again


class ExchangeDice(Command, tag="ExchangeDice", frozen=True):
    side: SideName  # who asked; the opponent picks first (KSI 4.1.3)


class ReportResult(Command, tag="ReportResult", frozen=True):
    side: SideName


class ConfirmResult(Command, tag="ConfirmResult", frozen=True):
    pass


class ConfirmScore(Command, tag="ConfirmScore", frozen=True):
    """A player's scoresheet agrees with the record after a game (KSI 4.7)."""

    side: SideName


class TakePause(Command, tag="TakePause", frozen=True):
    side: SideName
    own: int = 1
    pooled: int = 0  # the opponent's pauses added (KSI 2.2.2)


class StartClock(Command, tag="StartClock", frozen=True):
    at_ms: int
    imposed: bool = False  # the TD imposes a clock for slow play (KSI 2.3.1.1)


class PressClock(Command, tag="PressClock", frozen=True):
    side: SideName
    at_ms: int


class StopClock(Command, tag="StopClock", frozen=True):
    case: int  # which of the eight cases (KSI 4.3.2.1-8)
    at_ms: int


class ResumeClock(Command, tag="ResumeClock", frozen=True):
    at_ms: int
    side: str = ""  # whose time runs now (a new game: the starter's); "" the same as before


class RuleGameOverClaim(Command, tag="RuleGameOverClaim", frozen=True):
    claimant: SideName
    right: bool  # the TD's finding


class ClaimEarlyPickup(Command, tag="ClaimEarlyPickup", frozen=True):
    """The opponent stopped the clock and the offender accepted: the offender's time runs
    from `at_ms` and he may complete his move 30 s later (KSI 4.1.5.2)."""

    offender: SideName
    at_ms: int


class ReportFlag(Command, tag="ReportFlag", frozen=True):
    at_ms: int
    both: bool = False  # both flags down, who was first unknown


class CallTD(Command, tag="CallTD", frozen=True):
    side: str = ""  # the player calling; "" the monitor or the TD
    reason: str = ""
    at_ms: int = 0  # with a running clock: the device time it is stopped at (KSI 4.3.2.4)


class GiveRuling(Command, tag="GiveRuling", frozen=True):
    text: str
    favours: str = ""
    testimony: tuple[str, ...] = ()
    td: str = ""  # the TD ruling; over HTTP the signed-in TD's name


class Appeal(Command, tag="Appeal", frozen=True):
    side: SideName


class DecideAppeal(Command, tag="DecideAppeal", frozen=True):
    """The jury's decision, final (KSI 5.2). An overturn returns the board, dice, cube, score
    and clocks to the call; `remedy` is what the decision then orders (a reroll, a correction
    of an illegal play, a scoresheet's score ...), recorded with it."""

    jury: tuple[str, ...]  # three or five, not the TD (KSI 1.3.2)
    overturn_votes: int
    td: str = ""  # the TD who ruled, who cannot sit on the jury
    remedy: Remedy | None = None
    reasons: str = ""  # why the jury decided so, reported to KSI (KSI 5.6)


class RecordTestimony(Command, tag="RecordTestimony", frozen=True):
    """What a witness or a player said to the TD or the jury (KSI 5.4)."""

    witness: str
    text: str


class FileMonitorReport(Command, tag="FileMonitorReport", frozen=True):
    """The appointed monitor reports what he saw (KSI 1.3.3, 1.7.4)."""

    text: str


class LodgeObjection(Command, tag="LodgeObjection", frozen=True):
    """A player's formal objection to the jury's findings, sent to KSI in writing with its
    grounds (KSI 5.5): on the record, for KSI's jury; the decision stays final (KSI 5.2)."""

    side: SideName
    grounds: str


class CorrectCubeValue(Command, tag="CorrectCubeValue", frozen=True):
    """A double taken at a wrong value: the take stands, the cube is set right (KSI 4.4.6)."""

    value: int


class AppointMonitor(Command, tag="AppointMonitor", frozen=True):
    name: str
    requested_by: str = ""  # a side, or "" on the TD's own initiative


class BarSpectators(Command, tag="BarSpectators", frozen=True):
    """The TD grants a player's request to bar spectators from watching the match (KSI 1.6.4):
    while barred, no public face shows it; staff and the table's judge still do."""

    requested_by: SideName


class AdmitSpectators(Command, tag="AdmitSpectators", frozen=True):
    """The bar of KSI 1.6.4 lifted: the match is public again."""


class Expel(Command, tag="Expel", frozen=True):
    side: SideName
    reason: str
    ground: Literal["conduct", "aids", "equipment"] = "conduct"  # KSI 1.2.4 / 1.7.3 / 1.2.3.2


class UndoLast(Command, tag="UndoLast", frozen=True):
    """A recording slip undone: back to the state after `to_version` in the current game.
    Over HTTP the service fills `to_version` with the start of the last command's events."""

    to_version: int = -1


class CorrectResult(Command, tag="CorrectResult", frozen=True):
    """The TD corrects a wrong recorded result, reported before the next round (KSI 4.6)."""

    winner: SideName
    score: tuple[int, int]
    reason: str
    next_round_started: bool = False  # what the TD knows of the competition
    published: bool = False  # the competition's results published (the server fills both)


class MoveToTable(Command, tag="MoveToTable", frozen=True):
    """The TD puts a called match not yet begun on another table (KSI 1.1: the rules are
    silent; the TD judges). Not among `AnyCommand`: only the competition's flow sends it,
    after the hall's check (decision 0207)."""

    table: int


# what a jury's overturning decision may order, on the board as it was at the call (KSI 5.2)
Remedy = Union[  # noqa: UP007
    RequireReroll,
    AcceptIllegalPlay,
    CorrectIllegalPlay,
    ReportWrongSetup,
    ResolveScoreDispute,
    CorrectCubeValue,
    SetClock,
]

AnyCommand = Union[  # noqa: UP007
    CreateMatch,
    StartGame,
    RollOpening,
    Roll,
    RequireReroll,
    Play,
    AcceptIllegalPlay,
    CorrectIllegalPlay,
    ReportWrongSetup,
    Double,
    Take,
    Drop,
    Concede,
    AnswerConcession,
    AgreeResult,
    ResolveScoreDispute,
    RecordLateness,
    ReportResult,
    ConfirmScore,
    ConfirmResult,
    TakePause,
    StartClock,
    PressClock,
    StopClock,
    ResumeClock,
    RuleGameOverClaim,
    ClaimEarlyPickup,
    ReportFlag,
    CallTD,
    GiveRuling,
    Appeal,
    DecideAppeal,
    RecordTestimony,
    FileMonitorReport,
    CorrectCubeValue,
    AppointMonitor,
    BarSpectators,
    AdmitSpectators,
    Expel,
    UndoLast,
    PenaliseSlowPlay,
    SetClock,
    PermitLeftOfBar,
    EndLeftOfBar,
    ExchangeDice,
    CorrectResult,
    LodgeObjection,
]
COMMAND_TYPES: tuple[type, ...] = AnyCommand.__args__  # type: ignore[attr-defined]
_DECODER = msgspec.json.Decoder(AnyCommand)


def decode_command(raw: bytes) -> Command:
    return _DECODER.decode(raw)
