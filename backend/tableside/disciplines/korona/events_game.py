"""Consequence events: what the rules decided after an entry (see events.py)."""

from __future__ import annotations

from tableside.disciplines.korona.events_base import Event
from tableside.disciplines.korona.vocabulary import Card, Side, SideOrNone, Spot


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
