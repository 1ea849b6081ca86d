"""State of one match aggregate: the match, its current game, and the correction window."""

from __future__ import annotations

import msgspec

from tableside.disciplines.korona.events import AnyEvent
from tableside.disciplines.korona.vocabulary import (
    FillSilences,
    Format,
    OpeningRule,
    RulesetName,
    Side,
)


class Pucks(msgspec.Struct, frozen=True, kw_only=True):
    """One side's pucks in a game: on_board + pocketed is always the side's full set."""

    on_board: int = 8
    pocketed: int = 0
    debt: int = 0  # penalty pucks owed (EKML §24(4))
    placed: int = 0  # penalty pucks put back on the board this game


class GameState(msgspec.Struct, frozen=True, kw_only=True):
    """The game in progress (or about to start)."""

    game_no: int = 0
    seats: tuple[str, ...] = ()  # clockwise, seats[0] is the opening seat
    opener: str = ""
    turn: str = ""  # the player with the turn
    set_up: bool = False  # pucks set out, waiting for or in play
    started: bool = False  # the opener has touched the striker (EKML §19(4))
    over: bool = False
    strokes: int = 0
    pucks: tuple[Pucks, Pucks] = (Pucks(), Pucks())
    played: tuple[str, ...] = ()  # players whose first series has ended
    cleared_first: tuple[str, ...] = ()  # sides that cleared all pucks in their first series
    cleared_turn_loss: tuple[str, ...] = ()  # ... and lost the turn on that last stroke
    skip_next: tuple[str, ...] = ()  # players who miss their next turn (EKML §24(8))
    stalemate: int = 0  # successive turns with only centre pucks untouched (EKML §27(6))
    rows_moved: tuple[str, ...] = ()  # players whose opposite start row has moved (EKML §28(6))
    replay: bool = False


class MatchState(msgspec.Struct, frozen=True, kw_only=True):
    """Everything decide needs about one match; serialisable as a snapshot."""

    match_id: str = ""
    created: bool = False
    ruleset: RulesetName = "EKML"
    fmt: Format = "singles"
    side_a: tuple[str, ...] = ()
    side_b: tuple[str, ...] = ()
    games: int = 1
    play_all: bool = False
    fill_silences: FillSilences = "ekml"
    opening: OpeningRule = ""  # listing / lot by the guide (EKML §31(1)), "" either
    points: tuple[float, float, float] = (2.0, 1.0, 0.0)
    protocol_seats: tuple[str, ...] = ()  # game 1 seating per the draw (EKML §31)
    won: tuple[int, int] = (0, 0)
    games_played: int = 0
    remarks: tuple[int, int] = (0, 0)
    slow_remarks: tuple[int, int] = (0, 0)
    time_limit: tuple[bool, bool] = (False, False)
    yellow: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    game: GameState = GameState()
    ended: bool = False
    end_reason: str = ""  # games | third_remark | conduct | no_show | withdrew | ...
    forfeit: bool = False  # a result not played out (EKML §32(3), NOVUS08 3.2)
    winner: str = ""
    result_points: tuple[float, float] = (0.0, 0.0)
    signed: bool = False
    version: int = 0
    # Correction window (EKML §12(3)5): the state before the current game started, and every
    # (version, event) since. A correction re-folds the window without the corrected entry.
    base: MatchState | None = None
    window: tuple[tuple[int, AnyEvent], ...] = ()


def initial_state() -> MatchState:
    """The empty match, before MatchCreated."""
    return MatchState()


def side_of(state: MatchState, player: str) -> Side | None:
    """Which side a player plays for, or None."""
    if player in state.side_a:
        return "A"
    if player in state.side_b:
        return "B"
    return None


def full_set(state: MatchState) -> int:
    """Pucks per side: 8 in singles, 16 for a pair (EKML §19(2), §28(2))."""
    return 16 if state.fmt == "pairs" else 8


def players(state: MatchState, side: str) -> tuple[str, ...]:
    """The players of one side."""
    return state.side_a if side == "A" else state.side_b
