"""evolve(state, event) -> state: applies one event; no decisions are made here."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from msgspec.structs import replace

from tableside.disciplines.backgammon import events as ev
from tableside.disciplines.backgammon import state as st
from tableside.disciplines.backgammon.state import GameState, MatchState, index, other
from tableside.disciplines.backgammon.timing import (
    DELAY_MS,
    Clock,
    add,
    charge,
    forced_wait,
    press,
)


def _game(state: MatchState, **changes: object) -> MatchState:
    return replace(state, game=replace(state.game, **changes))


def _created(state: MatchState, e: ev.MatchCreated) -> MatchState:
    return replace(
        state,
        created=True,
        match_id=e.match_id,
        players=(e.player_a, e.player_b),
        length=e.length,
        clock=e.clock,
        penalty_to_score=e.penalty_to_score,
        series=e.series,
        table=e.table,
        other_rules=e.other_rules,
    )


def _started(state: MatchState, e: ev.GameStarted) -> MatchState:
    game = GameState(game_no=e.game_no, position=e.position, crawford=e.crawford, phase=st.OPENING)
    return replace(
        state,
        game=game,
        games=e.game_no,
        crawford_played=state.crawford_played or e.crawford,
    )


def _opening(state: MatchState, e: ev.OpeningRolled) -> MatchState:
    if not e.starter:
        return state
    return _game(
        state,
        turn=e.starter,
        starter=e.starter,
        starter_rolls=1,
        dice=(e.die_a, e.die_b),
        phase=st.MOVE,
    )


def _rolled(state: MatchState, e: ev.DiceRolled) -> MatchState:
    g = state.game
    if e.early and e.side == g.turn:  # before the mover pressed the clock (KSI 4.1.6.2)
        return _game(state, dice=e.dice, phase=st.MOVE, invalid_roll=False, early_roll=True)
    if e.early:
        return _game(state, early_dice=e.dice)
    rolls = g.starter_rolls + (e.side == g.starter)
    return _game(state, dice=e.dice, phase=st.MOVE, invalid_roll=False, starter_rolls=rolls)


def _invalid(state: MatchState, e: ev.InvalidRoll) -> MatchState:
    if e.side != state.game.turn:
        return state
    return _game(state, phase=st.ROLL_ONLY, invalid_roll=True, dice=(0, 0))


def _reroll(state: MatchState, e: ev.RerollRequired) -> MatchState:
    return _game(state, phase=st.ROLL_ONLY, dice=(0, 0), early_roll=False)


def _next_phase(g: GameState, turn: str) -> dict:
    if g.early_dice != (0, 0):
        return {"phase": st.MOVE, "dice": g.early_dice, "early_roll": True}
    if g.early_double == turn:
        return {"phase": st.DOUBLED, "dice": (0, 0), "early_roll": False}
    return {"phase": st.ROLL, "dice": (0, 0), "early_roll": False}


def _played(state: MatchState, e: ev.PlayRecorded) -> MatchState:
    g = state.game
    turn = other(e.side)
    illegal = () if e.legal else (e.side, g.position, e.dice)
    return _game(
        state,
        position=e.position,
        turn=turn,
        illegal=illegal,
        invalid_roll=False,
        early_dice=(0, 0),
        early_double="",
        corrected="",
        **_next_phase(g, turn),
    )


def _accepted(state: MatchState, e: ev.IllegalPlayAccepted) -> MatchState:
    return _game(state, illegal=())


def _corrected(state: MatchState, e: ev.IllegalPlayCorrected) -> MatchState:
    g = state.game
    mover, _, dice = g.illegal
    early = g.dice if g.early_roll else (0, 0)
    return _game(
        state,
        position=e.position,
        turn=mover,
        dice=dice,
        phase=st.MOVE,
        illegal=(),
        early_dice=early,
        early_roll=False,
        corrected=mover if state.timer is not None else "",
    )


def _setup_corrected(state: MatchState, e: ev.SetupCorrected) -> MatchState:
    return _game(state, position=e.position, setup_settled=True)


def _setup_stands(state: MatchState, e: ev.SetupStands) -> MatchState:
    return _game(state, setup_settled=True)


def _doubled(state: MatchState, e: ev.DoubleOffered) -> MatchState:
    if e.early:
        return _game(state, early_double=e.side, shown=e.shown)
    return _game(state, phase=st.DOUBLED, shown=e.shown)


def _taken(state: MatchState, e: ev.DoubleTaken) -> MatchState:
    return _game(state, cube=e.value, owner=e.side, phase=st.ROLL_ONLY, shown=0)


def _dropped(state: MatchState, e: ev.DoubleDropped) -> MatchState:
    return _game(state, shown=0)


def _conceded(state: MatchState, e: ev.ConcessionOffered) -> MatchState:
    return _game(state, concession=(e.side, e.kind))


def _declined(state: MatchState, e: ev.ConcessionDeclined) -> MatchState:
    return _game(state, concession=("", ""))


def _ended(state: MatchState, e: ev.GameEnded) -> MatchState:
    return replace(
        _game(state, phase=st.OVER, concession=("", ""), illegal=()),
        score=e.score,
    )


def _match_ended(state: MatchState, e: ev.MatchEnded) -> MatchState:
    return replace(_game(state, phase=st.OVER), over=True, winner=e.winner, score=e.score)


def _score_set(state: MatchState, e: ev.ScoreSet) -> MatchState:
    return replace(state, score=e.score)


def _penalty(state: MatchState, e: ev.PenaltyPoints) -> MatchState:
    i = index(e.side)
    received = list(state.penalty)
    received[i] += e.points
    return replace(state, penalty=(received[0], received[1]), score=e.score)


def _sheet(state: MatchState, e: ev.ScoreConfirmed) -> MatchState:
    return _game(state, sheets=(*state.game.sheets, e.side))


def _reported(state: MatchState, e: ev.ResultReported) -> MatchState:
    return replace(state, reported=e.side)


def _confirmed(state: MatchState, e: ev.ResultConfirmed) -> MatchState:
    return replace(state, confirmed=True)


def _paused(state: MatchState, e: ev.PauseTaken) -> MatchState:
    used = list(state.pauses)
    used[index(e.side)] += e.own
    used[index(other(e.side))] += e.pooled
    return replace(state, pauses=(used[0], used[1]))


def _clock_started(state: MatchState, e: ev.ClockStarted) -> MatchState:
    return replace(state, clock=True, timer=Clock(remaining=e.remaining, since=e.at_ms))


def _pressed(state: MatchState, e: ev.ClockPressed) -> MatchState:
    return replace(state, timer=press(state.timer, e.side, e.at_ms))


def _clock_stopped(state: MatchState, e: ev.ClockStopped) -> MatchState:
    return replace(state, timer=replace(charge(state.timer, e.at_ms), stopped=True))


def _resumed(state: MatchState, e: ev.ClockResumed) -> MatchState:
    timer = replace(state.timer, stopped=False, since=e.at_ms)
    if e.side and e.side != timer.running:
        timer = replace(timer, running=e.side, delay_left=DELAY_MS)
    return replace(_game(state, corrected=""), timer=timer)


def _time_added(state: MatchState, e: ev.TimeAdded) -> MatchState:
    return replace(state, timer=add(state.timer, e.side, e.ms))


def _forced_wait(state: MatchState, e: ev.ForcedWait) -> MatchState:
    return replace(state, timer=forced_wait(state.timer, e.side, e.at_ms, e.ms))


def _cube_corrected(state: MatchState, e: ev.CubeValueCorrected) -> MatchState:
    return _game(state, cube=e.value)


def _called(state: MatchState, e: ev.TDCalled) -> MatchState:
    return replace(state, dispute="called", called_at=state.version)


def _ruled(state: MatchState, e: ev.RulingGiven) -> MatchState:
    return replace(state, dispute="ruled", ruled_by=e.td)


def _overturned(state: MatchState, e: ev.RulingOverturned) -> MatchState:
    """Board, dice, cube, score and clocks as they were at the call (KSI 5.2)."""
    target = undo_target(state, e.to_version)
    if target is None:
        return state
    return replace(
        state,
        game=target.game,
        score=target.score,
        timer=target.timer,
        penalty=target.penalty,
        over=target.over,
        winner=target.winner,
    )


def _flag_fell(state: MatchState, e: ev.FlagFell) -> MatchState:
    return replace(state, timer=replace(state.timer, stopped=True))


def _abandoned(state: MatchState, e: ev.ClockAbandoned) -> MatchState:
    return replace(state, timer=None)


def _dispute(phase: str) -> Callable[[MatchState, ev.Event], MatchState]:
    def handler(state: MatchState, e: ev.Event) -> MatchState:
        return replace(state, dispute=phase)

    return handler


def _appeal_decided(state: MatchState, e: ev.AppealDecided) -> MatchState:
    return replace(state, dispute="final", final_at=state.version + 1)


def _monitor(state: MatchState, e: ev.MonitorAppointed) -> MatchState:
    return replace(state, monitor=e.name)


def _barred(state: MatchState, e: ev.SpectatorsBarred) -> MatchState:
    return replace(state, barred_by=e.requested_by)


def _admitted(state: MatchState, e: ev.SpectatorsAdmitted) -> MatchState:
    return replace(state, barred_by="")


def _clock_set(state: MatchState, e: ev.ClockSet) -> MatchState:
    return replace(state, timer=replace(state.timer, remaining=e.remaining, since=e.at_ms))


def _left_permitted(state: MatchState, e: ev.LeftOfBarPermitted) -> MatchState:
    return _game(state, left_of_bar=(*state.game.left_of_bar, e.side))


def _left_ended(state: MatchState, e: ev.LeftOfBarEnded) -> MatchState:
    return _game(state, left_of_bar=tuple(s for s in state.game.left_of_bar if s != e.side))


def _result_corrected(state: MatchState, e: ev.ResultCorrected) -> MatchState:
    return replace(state, winner=e.winner, score=e.score, reported="", confirmed=False)


def _table_changed(state: MatchState, e: ev.TableChanged) -> MatchState:
    return replace(state, table=e.table)


def _same(state: MatchState, e: ev.Event) -> MatchState:
    return state


HANDLERS: dict[type, Callable[[MatchState, Any], MatchState]] = {
    ev.MatchCreated: _created,
    ev.TableChanged: _table_changed,
    ev.GameStarted: _started,
    ev.OpeningRolled: _opening,
    ev.DiceRolled: _rolled,
    ev.InvalidRoll: _invalid,
    ev.RerollRequired: _reroll,
    ev.PlayRecorded: _played,
    ev.IllegalPlayAccepted: _accepted,
    ev.IllegalPlayCorrected: _corrected,
    ev.SetupCorrected: _setup_corrected,
    ev.SetupStands: _setup_stands,
    ev.DoubleOffered: _doubled,
    ev.DoubleVoided: _same,
    ev.DoubleTaken: _taken,
    ev.DoubleDropped: _dropped,
    ev.CubeValueCorrected: _cube_corrected,
    ev.ConcessionOffered: _conceded,
    ev.ConcessionDeclined: _declined,
    ev.GameEnded: _ended,
    ev.MatchEnded: _match_ended,
    ev.ScoreSet: _score_set,
    ev.PenaltyPoints: _penalty,
    ev.ResultReported: _reported,
    ev.ScoreConfirmed: _sheet,
    ev.ResultConfirmed: _confirmed,
    ev.PauseTaken: _paused,
    ev.ClockStarted: _clock_started,
    ev.ClockPressed: _pressed,
    ev.ClockStopped: _clock_stopped,
    ev.ClockResumed: _resumed,
    ev.TimeAdded: _time_added,
    ev.FlagFell: _flag_fell,
    ev.ClockAbandoned: _abandoned,
    ev.TDCalled: _called,
    ev.RulingGiven: _ruled,
    ev.AppealLodged: _dispute("appealed"),
    ev.AppealDecided: _appeal_decided,
    ev.RulingOverturned: _overturned,
    ev.TestimonyRecorded: _same,
    ev.MonitorReported: _same,
    ev.ObjectionLodged: _same,
    ev.ForcedWait: _forced_wait,
    ev.MonitorAppointed: _monitor,
    ev.SpectatorsBarred: _barred,
    ev.SpectatorsAdmitted: _admitted,
    ev.PlayerExpelled: _same,
    ev.EntryUndone: _same,
    ev.ClockSet: _clock_set,
    ev.LeftOfBarPermitted: _left_permitted,
    ev.LeftOfBarEnded: _left_ended,
    ev.DiceExchanged: _same,
    ev.ResultCorrected: _result_corrected,
}
# events no undo reaches back past: creation, a game's start, a corrected result (KSI 4.6)
_CUTS = (ev.MatchCreated, ev.GameStarted, ev.ResultCorrected)
# events after which a ruling can no longer be appealed "at once" (KSI 5.2)
_PLAY_ON = {ev.OpeningRolled, ev.DiceRolled, ev.InvalidRoll, ev.PlayRecorded, ev.DoubleOffered}
_PLAY_ON |= {ev.DoubleTaken, ev.DoubleDropped, ev.GameStarted, ev.GameEnded}


def evolve(state: MatchState, event: ev.Event) -> MatchState:
    """Apply one event; the state's version counts the events applied."""
    if type(event) is ev.EntryUndone:
        return _undone(state, event)
    new = HANDLERS[type(event)](state, event)
    if new.dispute in ("ruled", "final") and type(event) in _PLAY_ON:
        new = replace(new, dispute="")
    prev = None if type(event) in _CUTS else state
    return replace(new, version=state.version + 1, prev=prev)


def undo_target(state: MatchState, to_version: int) -> MatchState | None:
    """The state after `to_version` on the current game's undo chain (None if not on it)."""
    s: MatchState | None = state
    while s is not None and s.version > to_version:
        s = s.prev
    return s if s is not None and s.version == to_version else None


def _undone(state: MatchState, e: ev.EntryUndone) -> MatchState:
    target = undo_target(state, e.to_version)
    if target is None:  # decide refuses this; a stored stream never gets here
        return replace(state, version=state.version + 1)
    return replace(target, version=state.version + 1, prev=target)


def fold(events: Iterable[ev.Event], state: MatchState | None = None) -> MatchState:
    """The state after a sequence of events (reduce(evolve, events, initial_state()))."""
    state = st.initial_state() if state is None else state
    for event in events:
        state = evolve(state, event)
    return state
