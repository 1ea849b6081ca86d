"""evolve(state, event) -> state: applies one event; no decisions are made here."""

from __future__ import annotations

from collections.abc import Callable

from msgspec.structs import replace

from tableside.rules import events as ev
from tableside.rules.state import GameState, MatchState, Pucks, full_set
from tableside.rules.vocabulary import index, other


def _game(state: MatchState, **changes: object) -> MatchState:
    return replace(state, game=replace(state.game, **changes))


def _pucks(state: MatchState, side: str, **changes: int) -> MatchState:
    i = index(side)
    pucks = list(state.game.pucks)
    pucks[i] = replace(pucks[i], **changes)
    return _game(state, pucks=(pucks[0], pucks[1]))


def _created(state: MatchState, e: ev.MatchCreated) -> MatchState:
    return replace(
        state,
        match_id=e.match_id,
        created=True,
        ruleset=e.ruleset,
        fmt=e.fmt,
        side_a=e.side_a,
        side_b=e.side_b,
        games=e.games,
        play_all=e.play_all,
        points=e.points,
    )


def _opening(state: MatchState, e: ev.OpeningShotAssigned) -> MatchState:
    return replace(state, protocol_seats=e.seats)


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


def _remark(state: MatchState, e: ev.RemarkGiven) -> MatchState:
    i = index(e.side)
    remarks = (e.count, state.remarks[1]) if i == 0 else (state.remarks[0], e.count)
    if e.reason != "slow_play":
        return replace(state, remarks=remarks)
    s = state.slow_remarks
    slow = (s[0] + 1, s[1]) if i == 0 else (s[0], s[1] + 1)
    return replace(state, remarks=remarks, slow_remarks=slow)


def _time_limit(state: MatchState, e: ev.TimeLimitImposed) -> MatchState:
    t = state.time_limit
    return replace(state, time_limit=(True, t[1]) if e.side == "A" else (t[0], True))


def _warning(state: MatchState, e: ev.WarningGiven) -> MatchState:
    return replace(state, yellow=(*state.yellow, e.player)) if e.card == "yellow" else state


def _game_ended(state: MatchState, e: ev.GameEnded) -> MatchState:
    w = state.won
    won = (w[0] + 1, w[1]) if e.winner == "A" else (w[0], w[1] + 1)
    return replace(
        state, won=won, games_played=state.games_played + 1, game=replace(state.game, over=True)
    )


def _annulled(state: MatchState, e: ev.GameAnnulled) -> MatchState:
    return _game(state, over=True)


def _remaining(state: MatchState, e: ev.RemainingGamesLost) -> MatchState:
    w = state.won
    won = (w[0], w[1] + e.games) if e.side == "A" else (w[0] + e.games, w[1])
    return replace(state, won=won, games_played=state.games_played + e.games)


def _removed(state: MatchState, e: ev.PlayerRemoved) -> MatchState:
    return replace(state, removed=(*state.removed, e.player))


def _match_ended(state: MatchState, e: ev.MatchEnded) -> MatchState:
    return replace(
        state,
        ended=True,
        winner=e.winner,
        result_points=(e.points_a, e.points_b),
        game=replace(state.game, over=True),
    )


def _signed(state: MatchState, e: ev.ProtocolSigned) -> MatchState:
    return replace(state, signed=True)


def _same(state: MatchState, e: ev.Event) -> MatchState:
    return state


HANDLERS: dict[type, Callable[[MatchState, object], MatchState]] = {
    ev.MatchCreated: _created,
    ev.OpeningShotAssigned: _opening,
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
    ev.RemarkGiven: _remark,
    ev.TimeLimitImposed: _time_limit,
    ev.WarningGiven: _warning,
    ev.GameEnded: _game_ended,
    ev.GameAnnulled: _annulled,
    ev.RemainingGamesLost: _remaining,
    ev.PlayerRemoved: _removed,
    ev.MatchEnded: _match_ended,
    ev.ProtocolSigned: _signed,
}
for _t in ev.EVENT_TYPES:
    HANDLERS.setdefault(_t, _same)
