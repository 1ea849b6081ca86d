"""Consequence events: what the rules decided after an entry (see events.py)."""

from __future__ import annotations

from tableside.disciplines.korona.events_base import Event
from tableside.disciplines.korona.vocabulary import Card, Side, SideOrNone, Spot


class GameSetUp(Event, tag="GameSetUp", frozen=True):
    game_no: int
    seats: tuple[str, ...]
    opener: str
    replay: bool = False


class StartPositionRestored(Event, tag="StartPositionRestored", frozen=True):
    game_no: int


class FoulCommitted(Event, tag="FoulCommitted", frozen=True):
    player: str
    code: str


class OffenceDisregarded(Event, tag="OffenceDisregarded", frozen=True):
    player: str
    code: str


class PenaltyAwarded(Event, tag="PenaltyAwarded", frozen=True):
    side: Side
    player: str  # the punished player: the penalty goes to the zone opposite him


class PenaltyPuckPlaced(Event, tag="PenaltyPuckPlaced", frozen=True):
    side: Side
    player: str
    spot: Spot
    from_debt: bool = False


class DebtRecorded(Event, tag="DebtRecorded", frozen=True):
    side: Side
    player: str


class DebtCancelled(Event, tag="DebtCancelled", frozen=True):
    side: Side
    count: int


class PucksRestored(Event, tag="PucksRestored", frozen=True):
    side: Side
    count: int
    from_pocket: int = 0  # of those, how many come back out of a pocket
    what: str = ""


class PucksToCentre(Event, tag="PucksToCentre", frozen=True):
    side: Side
    count: int
    first_touched: bool = False  # the one the striker touched first goes to the centre point


class OpponentPucksLeft(Event, tag="OpponentPucksLeft", frozen=True):
    side: Side
    count: int
    what: str = ""


class TurnKept(Event, tag="TurnKept", frozen=True):
    player: str


class TurnPassed(Event, tag="TurnPassed", frozen=True):
    player: str
    to: str
    stalemate: int = 0  # successive turns with pucks only in the centre circle, none touched


class TurnSkipped(Event, tag="TurnSkipped", frozen=True):
    player: str


class NextTurnForfeited(Event, tag="NextTurnForfeited", frozen=True):
    player: str


class SeriesStopped(Event, tag="SeriesStopped", frozen=True):
    player: str
    turn_lost: bool = False  # the clearing stroke would have lost the turn (EKML §27(6))


class RowMoved(Event, tag="RowMoved", frozen=True):
    player: str  # the pucks set out opposite this player have left the start position


class RemarkGiven(Event, tag="RemarkGiven", frozen=True):
    player: str
    side: Side
    reason: str
    count: int  # the side's remarks in this match (a pair counts jointly)


class TimeLimitImposed(Event, tag="TimeLimitImposed", frozen=True):
    side: Side


class WarningGiven(Event, tag="WarningGiven", frozen=True):
    player: str
    side: Side
    card: Card


class GameEnded(Event, tag="GameEnded", frozen=True):
    game_no: int
    winner: Side
    reason: str


class GameAnnulled(Event, tag="GameAnnulled", frozen=True):
    game_no: int
    reason: str
    swap: bool = False  # 8+8: sides and opening swapped for the replay


class RemainingGamesLost(Event, tag="RemainingGamesLost", frozen=True):
    side: Side
    games: int


class PlayerRemoved(Event, tag="PlayerRemoved", frozen=True):
    player: str
    side: Side
    scope: str  # "match" | "competition"


class MatchEnded(Event, tag="MatchEnded", frozen=True):
    winner: SideOrNone
    games_a: int
    games_b: int
    points_a: float
    points_b: float
    reason: str
    forfeit: bool = False
