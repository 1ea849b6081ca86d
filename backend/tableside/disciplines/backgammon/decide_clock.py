"""Deciders for time: pauses (KSI 2.2.2) and the clock (KSI 3.5.5-6, 4.1.5.2, 4.3.2, 4.3.3).

Every press, stop and resume carries the device time (ms) it happened at; the events carry the
times left after it, so a replay shows both clocks at every move.
"""

from __future__ import annotations

from tableside.disciplines.backgammon import cite as k
from tableside.disciplines.backgammon import commands as c
from tableside.disciplines.backgammon import events as ev
from tableside.disciplines.backgammon import guards, timing
from tableside.disciplines.backgammon import state as st
from tableside.disciplines.backgammon.errors import RuleViolation
from tableside.disciplines.backgammon.state import MatchState, index, other

EARLY_PICKUP_MS = 30_000  # KSI 4.1.5.2
WRONG_CLAIM_MS = 5 * timing.MINUTE  # KSI 4.3.2.8


def take_pause(state: MatchState, cmd: c.TakePause) -> list[ev.Event]:
    """Between games only; one's own pauses, pooled with the opponent's if he agrees."""
    if not state.created or state.over or state.game.phase != st.OVER:
        raise RuleViolation(
            k.PAUSES, "pauses are taken between games", "side", code="bg_pause_between_games"
        )
    guards.side(cmd.side)
    allowed = timing.pauses_allowed(state.length, state.series)
    own = state.pauses[index(cmd.side)] + cmd.own
    theirs = state.pauses[index(other(cmd.side))] + cmd.pooled
    if cmd.own < 0 or cmd.pooled < 0 or cmd.own + cmd.pooled == 0:
        raise RuleViolation(k.PAUSES, "at least one pause", "own", code="bg_at_least_one_pause")
    if own > allowed or theirs > allowed:
        raise RuleViolation(
            k.PAUSES,
            f"pauses each in a {state.length}-point match: at most {allowed}",
            code="bg_pauses_allowed",
            params={"count": allowed, "length": state.length},
        )
    return [ev.PauseTaken(side=cmd.side, own=cmd.own, pooled=cmd.pooled, rule=k.PAUSES)]


def start_clock(state: MatchState, cmd: c.StartClock) -> list[ev.Event]:
    """2 minutes per point each at the start (KSI 3.5.5); RA+RB minutes each once points have
    been scored or given as penalties (KSI 3.5.6); imposed for slow play (KSI 2.3.1.1)."""
    if not state.created or state.over:
        raise RuleViolation(k.RECORD, "no match in progress", code="bg_no_match_in_progress")
    if state.timer is not None:
        raise RuleViolation(
            k.CLOCK_USE, "the clock is already running", code="bg_clock_running_already"
        )
    fresh = state.score == (0, 0) and state.games <= 1
    ms = timing.initial_ms(state.length) if fresh else timing.ra_rb_ms(state.length, state.score)
    rule = k.SLOW_CLOCK if cmd.imposed else (k.CLOCK_START if fresh else k.CLOCK_RARB)
    started = ev.ClockStarted(at_ms=cmd.at_ms, remaining=(ms, ms), imposed=cmd.imposed, rule=rule)
    return [started]


def _timer(state: MatchState) -> timing.Clock:
    if state.timer is None or state.over:
        raise RuleViolation(k.CLOCK_USE, "no clock in this match", "at_ms", code="bg_no_clock")
    return state.timer


def press_clock(state: MatchState, cmd: c.PressClock) -> list[ev.Event]:
    """Completes a move (KSI 4.1.6.2); the time run out shows at the press (KSI 4.3.3)."""
    clock = _timer(state)
    if clock.stopped or (clock.running and clock.running != cmd.side):
        raise RuleViolation(
            k.COMPLETE_CLOCK,
            "only the player whose time runs presses",
            "side",
            code="bg_press_own_clock",
        )
    _not_before(clock, cmd.at_ms)
    if cmd.at_ms < clock.wait_until:
        wait = -(-(clock.wait_until - cmd.at_ms) // 1000)
        why, left = f"{wait} s of the forced wait are left", {"seconds": wait}
        raise RuleViolation(k.EARLY_PICKUP, why, "at_ms", code="bg_forced_wait", params=left)
    after = timing.press(clock, cmd.side, cmd.at_ms)
    pressed = ev.ClockPressed(
        side=cmd.side, at_ms=cmd.at_ms, remaining=after.remaining, rule=k.COMPLETE_CLOCK
    )
    if after.remaining[index(cmd.side)] <= 0:
        return [pressed, *_flag(state, cmd.side, cmd.at_ms)]
    return [pressed]


def _not_before(clock: timing.Clock, at: int) -> None:
    if at < clock.since:
        raise RuleViolation(k.RECORD, "device time runs forward", "at_ms", code="bg_time_backwards")


def stop_clock(state: MatchState, cmd: c.StopClock) -> list[ev.Event]:
    """Only in the eight cases of KSI 4.3.2."""
    clock = _timer(state)
    if cmd.case not in range(1, 9):
        raise RuleViolation(
            k.CLOCK_STOP,
            "the clock stops only in the eight cases",
            "case",
            code="bg_clock_stop_cases",
        )
    if clock.stopped:
        raise RuleViolation(k.CLOCK_STOP, "the clock is stopped", "case", code="bg_clock_stopped")
    _not_before(clock, cmd.at_ms)
    after = timing.charge(clock, cmd.at_ms)
    rule = f"{k.CLOCK_STOP}.{cmd.case}"
    return [ev.ClockStopped(case=cmd.case, at_ms=cmd.at_ms, remaining=after.remaining, rule=rule)]


def resume_clock(state: MatchState, cmd: c.ResumeClock) -> list[ev.Event]:
    clock = _timer(state)
    if not clock.stopped:
        raise RuleViolation(k.CLOCK_STOP, "the clock is running", "at_ms", code="bg_clock_running")
    _not_before(clock, cmd.at_ms)
    if cmd.side not in ("", "A", "B"):
        raise RuleViolation(
            k.CLOCK_STOP, "side must be A, B or empty", "side", code="bg_side_a_b_empty"
        )
    offender = state.game.corrected
    if offender:  # his clock restarts and he replays legally (KSI 4.2.3.3)
        if cmd.side not in ("", offender):
            raise RuleViolation(
                k.ILLEGAL_CLOCK,
                "the offender's clock restarts",
                "side",
                code="bg_offender_clock_restarts",
            )
        return [ev.ClockResumed(at_ms=cmd.at_ms, side=offender, rule=k.ILLEGAL_CLOCK)]
    return [ev.ClockResumed(at_ms=cmd.at_ms, side=cmd.side, rule=k.CLOCK_STOP)]


def game_over_claim(state: MatchState, cmd: c.RuleGameOverClaim) -> list[ev.Event]:
    """A wrong claim that the game is over: the opponent gets five minutes (KSI 4.3.2.8)."""
    _timer(state)
    guards.side(cmd.claimant)
    if cmd.right:
        return []
    return [ev.TimeAdded(side=other(cmd.claimant), ms=WRONG_CLAIM_MS, rule=k.WRONG_CLAIM)]


def early_pickup(state: MatchState, cmd: c.ClaimEarlyPickup) -> list[ev.Event]:
    """Dice picked up before the opponent finished his move: the opponent stops the clock
    (case 4.3.2.5), the offender accepts, the clock restarts with the offender's time running
    and he may complete his move only after 30 s (KSI 4.1.5.2). The 12 s delay runs first, so
    the wait costs him 18 s of his time; a wait is a wait, never a deduction."""
    clock = _timer(state)
    guards.side(cmd.offender)
    _not_before(clock, cmd.at_ms)
    return [
        ev.ForcedWait(side=cmd.offender, at_ms=cmd.at_ms, ms=EARLY_PICKUP_MS, rule=k.EARLY_PICKUP)
    ]


def report_flag(state: MatchState, cmd: c.ReportFlag) -> list[ev.Event]:
    """Time has run out when noticed (KSI 4.3.3); both out, first unknown: play on untimed."""
    clock = _timer(state)
    if cmd.both:
        return [ev.ClockAbandoned(rule=k.TIME_OUT)]
    side = clock.running
    if not side or timing.time_left(clock, side, cmd.at_ms) > 0:
        raise RuleViolation(
            k.TIME_OUT, "no player's time has run out", "at_ms", code="bg_no_time_out"
        )
    return [
        ev.ClockStopped(
            case=4,
            at_ms=cmd.at_ms,
            remaining=timing.charge(clock, cmd.at_ms).remaining,
            rule="KSI 4.3.2.4",
        ),
        *_flag(state, side, cmd.at_ms),
    ]


def _flag(state: MatchState, side: str, at: int) -> list[ev.Event]:
    """Out of time loses the match, unless certain to win it anyway (gin, KSI 4.3.3)."""
    certain = _certain_points(state, side)
    gin = state.score[index(side)] + certain >= state.length
    winner = side if gin else other(side)
    score = list(state.score)
    if gin:
        score[index(side)] += certain
    return [
        ev.FlagFell(side=side, at_ms=at, gin=gin, rule=k.TIME_OUT),
        ev.MatchEnded(winner=winner, score=(score[0], score[1]), rule=k.TIME_OUT),
    ]


def _certain_points(state: MatchState, side: str) -> int:
    """The points `side` is certain to score in the game in progress whatever the dice: a
    certain single, gammon or backgammon at the cube (KSI 4.3.3 asks whether he is certain to
    win the match, counted against the score)."""
    g = state.game
    if g.phase in (st.OVER, st.OPENING):
        return 0
    me, opp = st.mine(state, side)
    return timing.certain_kind(me, opp, on_roll=g.turn == side) * g.cube


def set_clock(state: MatchState, cmd: c.SetClock) -> list[ev.Event]:
    """A broken clock replaced at once, set by the TD's judgement (KSI 3.7.2)."""
    _timer(state)
    if len(cmd.remaining) != 2 or min(cmd.remaining) <= 0:
        raise RuleViolation(
            k.CLOCK_REPLACED, "time left for both players", "remaining", code="bg_time_both"
        )
    return [ev.ClockSet(at_ms=cmd.at_ms, remaining=cmd.remaining, rule=k.CLOCK_REPLACED)]
