"""Time rules as pure functions: lateness, pauses, the Bronstein clock, the gin position
(KSI 2.2.2, 2.2.4, 3.5.5, 3.5.6, 4.3.3)."""

from __future__ import annotations

import msgspec
from msgspec.structs import replace

from tableside.disciplines.backgammon import board

MINUTE = 60_000  # ms
DELAY_MS = 12_000  # Bronstein delay per move, not accumulating (KSI 3.5.5)
PAUSE_MINUTES = 5  # KSI 2.2.2


def lateness_points(minutes: int) -> int:
    """1 penalty point at 5 minutes late, 1 more for every further 5 (KSI 2.2.4)."""
    return max(0, minutes) // 5


def loses_on_penalty(received: int, length: int) -> bool:
    """Penalty points exceeding half the match length lose the match (KSI 2.2.4)."""
    return 2 * received > length


def pauses_allowed(length: int, series: bool = False) -> int:
    """5-minute pauses per player by match length (KSI 2.2.2).

    to 9: 1, 11-13: 2, 15-19: 3, longer: 4. The text leaves 10 and 14 open; read "to 9" as
    "up to 9" and give 10 and 14 the bracket below (docs/decisions/). In a series of short
    matches (to 3-7) pauses come between matches only: none inside one.
    """
    if series and length <= 7:
        return 0
    if length <= 10:
        return 1
    if length <= 14:
        return 2
    return 3 if length <= 19 else 4


def initial_ms(length: int) -> int:
    """2 minutes per match point per player (KSI 3.5.5)."""
    return 2 * MINUTE * length


def ra_rb_ms(length: int, score: tuple[int, int]) -> int:
    """RA + RB minutes each: the points both players still need (KSI 3.5.6)."""
    return MINUTE * ((length - score[0]) + (length - score[1]))


class Clock(msgspec.Struct, frozen=True, kw_only=True):
    """A Bronstein clock read from device times (ms). Only the running side's time moves."""

    remaining: tuple[int, int]
    running: str = ""  # the side whose time runs ("" before the first press)
    stopped: bool = False
    since: int = 0  # device time the running side's time last started
    delay_left: int = DELAY_MS  # the running side's delay left in this move
    wait_until: int = 0  # the running side may not complete his move before (KSI 4.1.5.2)


def _set(pair: tuple[int, int], side: str, value: int) -> tuple[int, int]:
    return (value, pair[1]) if side == "A" else (pair[0], value)


def charge(clock: Clock, at: int) -> Clock:
    """Charge the running side for the time since `since`: the delay first, then his time."""
    if not clock.running or clock.stopped:
        return replace(clock, since=at)
    elapsed = max(0, at - clock.since)
    from_delay = min(clock.delay_left, elapsed)
    i = 0 if clock.running == "A" else 1
    left = clock.remaining[i] - (elapsed - from_delay)
    return replace(
        clock,
        remaining=_set(clock.remaining, clock.running, left),
        since=at,
        delay_left=clock.delay_left - from_delay,
    )


def press(clock: Clock, side: str, at: int) -> Clock:
    """`side` completes his move: his time stops, the opponent's runs with a fresh delay."""
    clock = charge(clock, at)
    other = "B" if side == "A" else "A"
    return replace(clock, running=other, since=at, delay_left=DELAY_MS, wait_until=0)


def forced_wait(clock: Clock, side: str, at: int, ms: int) -> Clock:
    """`side`'s time runs from `at` (a fresh delay first) and he may complete his move only
    `ms` later (KSI 4.1.5.2: with the 12 s delay a 30 s wait costs 18 s of his time)."""
    clock = charge(clock, at)
    return replace(
        clock, running=side, stopped=False, since=at, delay_left=DELAY_MS, wait_until=at + ms
    )


def time_left(clock: Clock, side: str, at: int) -> int:
    """What `side` has left at device time `at` (without the delay still to run)."""
    now = charge(clock, at)
    return now.remaining[0 if side == "A" else 1]


def add(clock: Clock, side: str, ms: int) -> Clock:
    i = 0 if side == "A" else 1
    return replace(clock, remaining=_set(clock.remaining, side, clock.remaining[i] + ms))


def turns_at_most(side: board.Side) -> int:
    """An upper bound of the turns a side needs to bear off in a race: every die moves at least
    one pip once no checker can be hit (none is ever blocked)."""
    return -(-board.pips(side) // 2)


def turns_at_least(side: board.Side) -> int:
    """A lower bound: at most 24 pips and 4 checkers a turn."""
    on_board = sum(side[1:])
    return max(-(-board.pips(side) // 24), -(-on_board // 4))


def _first(mine: int, theirs: int, on_roll: bool) -> bool:
    """`me` finishes in at most `mine` turns before the opponent's `theirs`-th turn comes."""
    return mine <= theirs if on_roll else mine < theirs


def _turns_to_pass(opp: board.Side, beyond: int) -> int:
    """A lower bound of the turns the opponent needs to bring every checker to point `beyond`
    or lower (his numbering): at most 24 pips and 4 checkers a turn."""
    pips = sum((p - beyond) * n for p, n in enumerate(opp) if p > beyond)
    count = sum(n for p, n in enumerate(opp) if p > beyond)
    return max(-(-pips // 24), -(-count // 4))


def certain_game_win(me: board.Side, opp: board.Side, on_roll: bool) -> bool:
    """`me` wins the game whatever the dice: a race he wins even at one pip per die (KSI 4.3.3).
    Sound, not complete: it never calls a race certain that is not."""
    return certain_kind(me, opp, on_roll) > 0


def certain_kind(me: board.Side, opp: board.Side, on_roll: bool) -> int:
    """What `me` is certain to win whatever the dice: 0 nothing, 1 a single, 2 a gammon (the
    opponent cannot bear a checker off first), 3 a backgammon (nor leave my home board and the
    bar). Sound, not complete: only races, at one pip per die for `me`."""
    if board.contact(me, opp):
        return 0
    mine = turns_at_most(me)
    if not _first(mine, turns_at_least(opp), on_roll):
        return 0
    if opp[0]:
        return 1
    # bearing one off needs every checker home and one more move
    home = _turns_to_pass(opp, 6)
    first_off = max(home, -(-(sum(opp[7:]) + 1) // 4), 1)
    if not _first(mine, first_off, on_roll):
        return 1
    if not any(opp[19:]) or not _first(mine, _turns_to_pass(opp, 18), on_roll):
        return 2
    return 3
