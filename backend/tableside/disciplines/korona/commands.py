"""Commands: what a judge reports (facts the engine cannot see). Tagged by `type` for JSON."""

from __future__ import annotations

from typing import Literal, Union

import msgspec

from tableside.disciplines.korona.vocabulary import (
    Card,
    Contact,
    FillSilences,
    Format,
    IncidentCode,
    Limit,
    Nearer,
    OpeningMethod,
    OpeningRule,
    RemarkReason,
    RulesetName,
    Side,
    SideOrNone,
    StrikerEnd,
    StrokeKind,
    StrokeOffence,
)


class ZoneSurvey(msgspec.Struct, forbid_unknown_fields=True, frozen=True, kw_only=True):
    """What the judge sees in the cushion zone where a penalty puck goes (EKML §24(3)).

    Left/right as seen by the punished player. The default is an empty centre-line spot.
    """

    centre_free: bool = True
    nearer: Nearer = "equal"  # which side has the nearer free spot when the centre is taken
    own_left: int = 0
    own_right: int = 0
    total_left: int = 0
    total_right: int = 0
    stroke_side: Literal["left", "right", ""] = ""  # NOVUS08 17.3 / LV 15.2


class StrokeFacts(msgspec.Struct, forbid_unknown_fields=True, frozen=True, kw_only=True):
    """The judge's account of one stroke."""

    kind: StrokeKind = "direct"
    first_contact: Contact = "own_open"
    own_pocketed: int = 0
    opponent_pocketed: int = 0
    own_over: int = 0
    opponent_over: int = 0
    over_first_touched: SideOrNone = ""  # whose puck over the cushion the striker touched first
    striker: StrikerEnd = "board"
    crossed_zone_line: bool = False
    own_open_before: bool = True  # the shooter had an own open puck before the stroke
    own_locked_before: bool = False  # ... and at least one locked puck (EKML §20(7))
    own_locked_out: int = 0  # own locked pucks knocked out by the direct hit
    own_locked_out_pocketed: int = 0  # of those, how many fell into a pocket
    locked_hit_moved: int = 0  # other pucks moved by a direct stroke at an own locked puck
    opponent_locked_out: int = 0  # opponent's locked pucks knocked out by a direct stroke
    opponent_into_centre: int = 0  # opponent pucks driven into the centre circle (locked)
    opponent_into_zone: int = 0  # ... into their cushion zone (locked; the rear zone in pairs)
    rows_moved: tuple[str, ...] = ()  # players whose start row (opposite them) moved
    only_centre: bool = (
        False  # both sides have pucks only in the centre circle (NOVUS08: or rear zone)
    )
    offences: tuple[StrokeOffence, ...] = ()


class Command(
    msgspec.Struct, forbid_unknown_fields=True, frozen=True, kw_only=True, tag_field="type"
):
    """Base of every command; `at` is the client's timestamp, passed through to the events."""

    at: str = ""


class CreateMatch(Command, tag="CreateMatch", frozen=True):
    match_id: str
    side_a: tuple[str, ...]
    side_b: tuple[str, ...]
    ruleset: RulesetName = "EKML"
    fmt: Format = "singles"
    games: int = 1
    play_all: bool = False
    points: tuple[float, float, float] | None = None  # win, draw, loss; default EKML §32(2)
    fill_silences: FillSilences = "ekml"  # the guide's choice for LV's/NOVUS08's silences
    opening: OpeningRule = ""  # the guide's opening (EKML §31(1)); "" the table chooses


class AssignOpeningShot(Command, tag="AssignOpeningShot", frozen=True):
    method: OpeningMethod = "lot"
    lot_winner: SideOrNone = ""  # the side that won the lot / coin toss
    opener: str = ""  # pairs: the player the opening pair chose (EKML §31(3))
    opponent_first: str = ""  # pairs: which opponent sits next clockwise (they may swap)
    board: int = 1  # team matches: board number (EKML §31(2))


class RecordStroke(Command, tag="RecordStroke", frozen=True):
    player: str
    facts: StrokeFacts = StrokeFacts()
    zone: ZoneSurvey = ZoneSurvey()


class DeclineTurn(Command, tag="DeclineTurn", frozen=True):
    player: str
    zone: ZoneSurvey = ZoneSurvey()


class ReportIncident(Command, tag="ReportIncident", frozen=True):
    code: IncidentCode
    player: str = ""
    side: SideOrNone = ""
    pucks_moved: int = 0
    wrong_order_strokes: int = (
        0  # pairs: strokes already made in the wrong order (§23(1)6 märkus 2)
    )
    confirmed: bool = False  # EKML §22(4): the head judge confirmed
    confirmed_by: str = ""  # ... who: set by the server from the head judge's own sign-in
    zone: ZoneSurvey = ZoneSurvey()


class GiveRemark(Command, tag="GiveRemark", frozen=True):
    player: str
    reason: RemarkReason


class GiveWarning(Command, tag="GiveWarning", frozen=True):
    player: str
    card: Card = "yellow"


class ReportTimeExceeded(Command, tag="ReportTimeExceeded", frozen=True):
    player: str
    limit: Limit
    zone: ZoneSurvey = ZoneSurvey()


class KnockTable(Command, tag="KnockTable", frozen=True):
    player: str
    pucks_moved: int


class ForgetDebt(Command, tag="ForgetDebt", frozen=True):
    side: Side


class CorrectDecision(Command, tag="CorrectDecision", frozen=True):
    corrects_version: int
    reason: str
    replacement: RecordStroke | None = None


class UndoLastEntry(Command, tag="UndoLastEntry", frozen=True):
    reason: str = ""


class SignProtocol(Command, tag="SignProtocol", frozen=True):
    judge: str


COMMAND_TYPES: tuple[type, ...] = (
    CreateMatch,
    AssignOpeningShot,
    RecordStroke,
    DeclineTurn,
    ReportIncident,
    GiveRemark,
    GiveWarning,
    ReportTimeExceeded,
    KnockTable,
    ForgetDebt,
    CorrectDecision,
    UndoLastEntry,
    SignProtocol,
)

AnyCommand = Union[COMMAND_TYPES]  # noqa: UP007

_decoder = msgspec.json.Decoder(AnyCommand)


def decode_command(data: bytes) -> Command:
    """A command from JSON bytes (the `type` field picks the struct)."""
    return _decoder.decode(data)
