"""Deciders for the doubling cube (KSI section 4.4) and the end of a game by agreement (KSI 4.5)."""

from __future__ import annotations

from tableside.disciplines.backgammon import board, guards, timing
from tableside.disciplines.backgammon import cite as k
from tableside.disciplines.backgammon import commands as c
from tableside.disciplines.backgammon import events as ev
from tableside.disciplines.backgammon import state as st
from tableside.disciplines.backgammon.errors import RuleViolation
from tableside.disciplines.backgammon.state import MatchState, other


def double(state: MatchState, cmd: c.Double) -> list[ev.Event]:
    guards.in_game(state)
    guards.side(cmd.side)
    g = state.game
    if g.crawford:  # the cube is dead; the TD voids the double (KSI 4.4.4)
        return [ev.DoubleVoided(side=cmd.side, rule=k.CRAWFORD)]
    if g.owner and g.owner != cmd.side:
        raise RuleViolation(
            k.PLAY, "the cube is on the opponent's side", "side", code="bg_cube_opponents"
        )
    value = g.cube * 2
    shown = cmd.shown if cmd.shown and cmd.shown != value else 0
    if cmd.side != g.turn:
        return _premature(state, cmd, value, shown)
    _before_rolling(g)
    events = guards.implicit_accept(state, cmd.side)
    return [*events, ev.DoubleOffered(side=cmd.side, value=value, shown=shown, rule=k.DOUBLE)]


def _before_rolling(g: st.GameState) -> None:
    """Only on one's turn before rolling, never after an invalid roll (KSI 4.4.2)."""
    if g.phase == st.ROLL:
        return
    if g.invalid_roll:
        raise RuleViolation(
            k.DOUBLE,
            "no double after an invalid roll",
            "side",
            code="bg_no_double_after_invalid_roll",
        )
    if g.phase == st.DOUBLED:
        raise RuleViolation(
            k.TAKE_DROP, "a double is waiting for take or drop", "side", code="bg_double_waiting"
        )
    raise RuleViolation(
        k.DOUBLE, "a double comes before rolling", "side", code="bg_double_before_roll"
    )


def _premature(state: MatchState, cmd: c.Double, value: int, shown: int) -> list[ev.Event]:
    """Before the opponent finished his move: stands, effective at the next legal moment
    (KSI 4.4.5)."""
    g = state.game
    if g.phase != st.MOVE or g.early_double or g.early_dice != (0, 0):
        raise RuleViolation(
            k.DOUBLE, "a player doubles on his own turn", "side", code="bg_double_own_turn"
        )
    return [ev.DoubleOffered(side=cmd.side, value=value, shown=shown, early=True, rule=k.PREMATURE)]


def _answering(state: MatchState, side: str) -> st.GameState:
    guards.in_game(state)
    g = state.game
    if g.phase != st.DOUBLED or side != other(g.turn):
        raise RuleViolation(k.TAKE_DROP, "no double to answer", "side", code="bg_no_double")
    return g


def _corrected_value(g: st.GameState) -> list[ev.Event]:
    """The take or drop stands; the cube shows what it should (KSI 4.4.6)."""
    if not g.shown:
        return []
    return [ev.CubeValueCorrected(shown=g.shown, value=g.cube * 2, rule=k.WRONG_CUBE)]


def correct_value(state: MatchState, cmd: c.CorrectCubeValue) -> list[ev.Event]:
    """A double taken at a wrong value found later: the take stands and the cube is set to
    the value it should show (KSI 4.4.6)."""
    guards.in_game(state)
    g = state.game
    if not g.owner:
        raise RuleViolation(
            k.WRONG_CUBE,
            "no double has been taken in this game",
            "value",
            code="bg_no_double_taken",
        )
    if cmd.value < 2 or cmd.value & (cmd.value - 1) or cmd.value > 2**12:
        raise RuleViolation(
            k.WRONG_CUBE, "a cube value is 2, 4, 8, 16 ...", "value", code="bg_cube_value"
        )
    if cmd.value == g.cube:
        raise RuleViolation(
            k.WRONG_CUBE,
            f"the cube already shows {g.cube}",
            "value",
            code="bg_cube_shows",
            params={"value": g.cube},
        )
    return [ev.CubeValueCorrected(shown=g.cube, value=cmd.value, rule=k.WRONG_CUBE)]


def take(state: MatchState, cmd: c.Take) -> list[ev.Event]:
    g = _answering(state, cmd.side)
    taken = ev.DoubleTaken(side=cmd.side, value=g.cube * 2, rule=k.TAKE_DROP)
    return [taken, *_corrected_value(g)]


def drop(state: MatchState, cmd: c.Drop) -> list[ev.Event]:
    """Dropped: the doubler wins a single at the cube before the double; with a running clock
    the clock is stopped too (KSI 4.4.3; the game is over, case 4.3.2.1)."""
    g = _answering(state, cmd.side)
    events: list[ev.Event] = [ev.DoubleDropped(side=cmd.side, rule=k.TAKE_DROP)]
    events += _corrected_value(g)
    clock = state.timer
    if clock is not None and not clock.stopped and clock.running:
        at = max(cmd.at_ms, clock.since)  # no device time given: stopped as last pressed
        left = timing.charge(clock, at).remaining
        events.append(ev.ClockStopped(case=1, at_ms=at, remaining=left, rule=k.TAKE_DROP))
    return events + guards.end_game(state, g.turn, "single", "drop", k.TAKE_DROP)


def concede(state: MatchState, cmd: c.Concede) -> list[ev.Event]:
    """A single, gammon or backgammon, only once no checker can be hit (KSI 4.5)."""
    guards.in_game(state)
    guards.side(cmd.side)
    me, opp = st.mine(state, cmd.side)
    if board.contact(me, opp) and not state.other_rules:  # history from another event
        raise RuleViolation(
            k.FINISH,
            "no concession while checkers can still be hit",
            "side",
            code="bg_concession_in_contact",
        )
    if cmd.kind not in guards.MULTIPLIER:
        raise RuleViolation(
            k.FINISH, "single, gammon or backgammon", "kind", code="bg_concession_kind"
        )
    if state.game.concession[0]:
        raise RuleViolation(
            k.FINISH, "a concession is waiting for an answer", "side", code="bg_concession_waiting"
        )
    rule = k.RECORD if state.other_rules else k.FINISH
    return [ev.ConcessionOffered(side=cmd.side, kind=cmd.kind, rule=rule)]


def answer_concession(state: MatchState, cmd: c.AnswerConcession) -> list[ev.Event]:
    guards.in_game(state)
    by, kind = state.game.concession
    if not by or cmd.side != other(by):
        raise RuleViolation(k.FINISH, "no concession to answer", "side", code="bg_no_concession")
    if not cmd.accept:
        return [ev.ConcessionDeclined(side=cmd.side, rule=k.FINISH)]
    rule = k.RECORD if state.other_rules else k.FINISH
    return guards.end_game(state, cmd.side, kind, "concession", rule)


def agree_result(state: MatchState, cmd: c.AgreeResult) -> list[ev.Event]:
    """Players may not agree results of games or matches (KSI 4.5)."""
    if cmd.match:
        why = "players may not agree the result of a match"
        raise RuleViolation(k.FINISH, why, "winner", code="bg_no_agreed_match")
    why = "players may not agree the result of a game"
    raise RuleViolation(k.FINISH, why, "winner", code="bg_no_agreed_game")
