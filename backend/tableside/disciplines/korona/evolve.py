"""evolve(state, event) -> state: applies one event; no decisions are made here."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from tableside.disciplines.korona import events as ev
from tableside.disciplines.korona import evolve_match as m
from tableside.disciplines.korona.state import GameState, MatchState, Pucks, full_set
from tableside.disciplines.korona.vocabulary import index, other


def _game(state: MatchState, **changes: object) -> MatchState:
    return replace(state, game=replace(state.game, **changes))


def _pucks(state: MatchState, side: str, **changes: int) -> MatchState:
    i = index(side)
    pucks = list(state.game.pucks)
    pucks[i] = replace(pucks[i], **changes)
    return _game(state, pucks=(pucks[0], pucks[1]))


def _set_up(state: MatchState, e: ev.GameSetUp) -> MatchState:
    full = full_set(state)
    game = GameState(
        game_no=e.game_no,
        seats=e.seats,
        opener=e.opener,
        turn=e.opener,
        set_up=True,
        pucks=(Pucks(on_board=full), Pucks(on_board=full)),
        replay=e.replay,
    )
    return replace(state, game=game)


def _stroke(state: MatchState, e: ev.StrokeRecorded) -> MatchState:
    g = state.game
    if not g.started:  # the game starts: older entries can no longer be corrected
        state = replace(state, base=replace(state, base=None, window=()), window=())
    f = e.facts
    mine, theirs = g.pucks[index(e.side)], g.pucks[index(other(e.side))]
    mine = replace(
        mine, on_board=mine.on_board - f.own_pocketed, pocketed=mine.pocketed + f.own_pocketed
    )
    theirs = replace(
        theirs,
        on_board=theirs.on_board - f.opponent_pocketed,
        pocketed=theirs.pocketed + f.opponent_pocketed,
    )
    pucks = (mine, theirs) if e.side == "A" else (theirs, mine)
    return _game(state, started=True, strokes=g.strokes + 1, pucks=pucks)


def _restored(state: MatchState, e: ev.PucksRestored) -> MatchState:
    if not e.from_pocket:
        return state
    p = state.game.pucks[index(e.side)]
    return _pucks(
        state, e.side, on_board=p.on_board + e.from_pocket, pocketed=p.pocketed - e.from_pocket
    )


def _placed(state: MatchState, e: ev.PenaltyPuckPlaced) -> MatchState:
    p = state.game.pucks[index(e.side)]
    return _pucks(
        state,
        e.side,
        on_board=p.on_board + 1,
        pocketed=p.pocketed - 1,
        placed=p.placed + 1,
        debt=p.debt - 1 if e.from_debt else p.debt,
    )


def _debt(state: MatchState, e: ev.DebtRecorded) -> MatchState:
    return _pucks(state, e.side, debt=state.game.pucks[index(e.side)].debt + 1)


def _debt_cancelled(state: MatchState, e: ev.DebtCancelled) -> MatchState:
    return _pucks(state, e.side, debt=state.game.pucks[index(e.side)].debt - e.count)


def _turn_passed(state: MatchState, e: ev.TurnPassed) -> MatchState:
    g = state.game
    played = g.played if e.player in g.played else (*g.played, e.player)
    return _game(state, turn=e.to, played=played, stalemate=e.stalemate)


def _skipped(state: MatchState, e: ev.TurnSkipped) -> MatchState:
    skip = tuple(p for p in state.game.skip_next if p != e.player)
    return _game(state, skip_next=skip)


def _forfeited_turn(state: MatchState, e: ev.NextTurnForfeited) -> MatchState:
    return _game(state, skip_next=(*state.game.skip_next, e.player))


def _series_stopped(state: MatchState, e: ev.SeriesStopped) -> MatchState:
    g = state.game
    side = "A" if e.player in state.side_a else "B"
    lost = (*g.cleared_turn_loss, side) if e.turn_lost else g.cleared_turn_loss
    return _game(state, cleared_first=(*g.cleared_first, side), cleared_turn_loss=lost)


def _row_moved(state: MatchState, e: ev.RowMoved) -> MatchState:
    return _game(state, rows_moved=(*state.game.rows_moved, e.player))


def _same(state: MatchState, e: ev.Event) -> MatchState:
    return state


HANDLERS: dict[type, Callable[[MatchState, Any], MatchState]] = {
    ev.MatchCreated: m.created,
    ev.OpeningShotAssigned: m.opening,
    ev.GameSetUp: _set_up,
    ev.StrokeRecorded: _stroke,
    ev.PucksRestored: _restored,
    ev.PenaltyPuckPlaced: _placed,
    ev.DebtRecorded: _debt,
    ev.DebtCancelled: _debt_cancelled,
    ev.TurnPassed: _turn_passed,
    ev.TurnSkipped: _skipped,
    ev.NextTurnForfeited: _forfeited_turn,
    ev.SeriesStopped: _series_stopped,
    ev.RowMoved: _row_moved,
    ev.RemarkGiven: m.remark,
    ev.TimeLimitImposed: m.time_limit,
    ev.WarningGiven: m.warning,
    ev.GameEnded: m.game_ended,
    ev.GameAnnulled: m.annulled,
    ev.RemainingGamesLost: m.remaining,
    ev.PlayerRemoved: m.removed,
    ev.MatchEnded: m.match_ended,
    ev.ProtocolSigned: m.signed,
}
for _t in ev.EVENT_TYPES:
    HANDLERS.setdefault(_t, _same)
