"""State of one backgammon match: the match, the game in progress, the cube."""

from __future__ import annotations

import msgspec
import msgspec.structs

from tableside.disciplines.backgammon.board import STANDARD
from tableside.disciplines.backgammon.timing import Clock

Sides = tuple[tuple[int, ...], tuple[int, ...]]
# phases of the game in progress
OPENING = "opening"  # waiting for the opening roll
ROLL = "roll"  # the player on turn may double or roll
ROLL_ONLY = "roll_only"  # may roll, not double (after an invalid roll or a take)
MOVE = "move"  # dice rolled: the player on turn plays
DOUBLED = "doubled"  # the opponent of the player on turn answers a double
OVER = "over"


class GameState(msgspec.Struct, frozen=True, kw_only=True):
    game_no: int = 0
    position: Sides = (STANDARD, STANDARD)
    crawford: bool = False
    phase: str = OVER
    turn: str = ""  # the side on turn ("" before the opening roll)
    dice: tuple[int, int] = (0, 0)
    invalid_roll: bool = False  # the roll on turn was invalid (KSI 4.4.2: no double now)
    cube: int = 1
    owner: str = ""  # "" centred, else the side that holds the cube
    shown: int = 0  # a wrong value the cube was turned to (KSI 4.4.6)
    starter: str = ""
    starter_rolls: int = 0  # the opening roll counts as the starter's first (KSI 4.2.4)
    setup_settled: bool = False  # a wrong set-up stands or was corrected (KSI 4.2.4)
    early_dice: tuple[int, int] = (0, 0)  # the opponent rolled while the mover moved (4.1.5.1)
    early_roll: bool = False  # the dice on turn were rolled early; the opponent may want a reroll
    early_double: str = ""  # the side that doubled prematurely (KSI 4.4.5)
    corrected: str = ""  # with a clock: the offender replaying a corrected play (KSI 4.2.3.3)
    illegal: tuple = ()  # (mover, position before, dice) of an unanswered illegal play
    concession: tuple[str, str] = ("", "")  # (side, kind) offered (KSI 4.5)
    left_of_bar: tuple[str, ...] = ()  # sides allowed to roll left of the bar (KSI 4.1.4.1)
    sheets: tuple[str, ...] = ()  # sides whose scoresheet agreed after this game (KSI 4.7)


class MatchState(msgspec.Struct, frozen=True, kw_only=True):
    created: bool = False
    match_id: str = ""
    players: tuple[str, str] = ("", "")
    length: int = 0
    clock: bool = False
    penalty_to_score: bool = True
    score: tuple[int, int] = (0, 0)
    crawford_played: bool = False
    games: int = 0
    over: bool = False
    winner: str = ""
    reported: str = ""
    confirmed: bool = False
    penalty: tuple[int, int] = (0, 0)  # lateness penalty points received (KSI 2.2.4)
    series: bool = False
    pauses: tuple[int, int] = (0, 0)  # pauses used (KSI 2.2.2)
    timer: Clock | None = None  # the Bronstein clock, once started (KSI 3.5.5)
    dispute: str = (
        ""  # "" | "called" (board frozen) | "ruled" | "appealed" | "final" (KSI section 5)
    )
    called_at: int = -1  # the version the TD was called at: what an overturn restores (5.2)
    ruled_by: str = ""  # the TD who gave the ruling under appeal: never on its jury (1.3.2)
    final_at: int = 0  # the version of the last jury decision: no undo reaches past it (5.2)
    monitor: str = ""  # the monitor appointed to the match (KSI 1.3.3)
    barred_by: str = ""  # the side at whose request spectators are barred (KSI 1.6.4)
    table: int = 0  # the hall's table it is played on (0: none)
    other_rules: bool = False  # imported from an event under other rules (KSI 4.5 not binding)
    game: GameState = GameState()
    version: int = 0
    # the state before the last event, back to the current game's start: what an undo returns
    # to (never serialised: `snapshot()` leaves it out)
    prev: MatchState | None = None


def snapshot(state: MatchState) -> MatchState:
    """The state without its undo chain (for reading and sending)."""
    return msgspec.structs.replace(state, prev=None)


def initial_state() -> MatchState:
    return MatchState()


def index(side: str) -> int:
    return 0 if side == "A" else 1


def other(side: str) -> str:
    return "B" if side == "A" else "A"


def mine(state: MatchState, side: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(side's checkers, opponent's checkers) in the game in progress."""
    a, b = state.game.position
    return (a, b) if side == "A" else (b, a)


def as_sides(side: str, me: tuple[int, ...], opp: tuple[int, ...]) -> Sides:
    return (me, opp) if side == "A" else (opp, me)


def crawford_due(state: MatchState) -> bool:
    """The next game is the Crawford game: a player needs one point, the first time (KSI 4.4.4)."""
    need = state.length - 1
    return (
        need > 0
        and not state.crawford_played
        and need in state.score
        and max(state.score) < need + 1
    )
