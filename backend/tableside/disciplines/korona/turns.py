"""Passing the turn: clockwise order, missed turns, stalemate count, the 8+8 waiting rules."""

from __future__ import annotations

from tableside.disciplines.korona import events as ev
from tableside.disciplines.korona.batch import Batch
from tableside.disciplines.korona.game_end import annul, lose, win
from tableside.disciplines.korona.pairs import next_player
from tableside.disciplines.korona.state import side_of
from tableside.disciplines.korona.vocabulary import other

STALEMATE_TURNS = 6  # three successive turns each (EKML §27(6), the second paragraph so numbered)


def pass_turn(b: Batch, player: str, rule: str, stalemate: int = 0) -> None:
    """The turn goes clockwise; a player owing a missed turn is passed over (EKML §24(8))."""
    seats = b.state.game.seats
    nxt = next_player(seats, player)
    while nxt in b.state.game.skip_next:
        b.emit(ev.TurnSkipped(player=nxt, rule=b.cite("during_opponent")))
        nxt = next_player(seats, nxt)
    b.emit(ev.TurnPassed(player=player, to=nxt, stalemate=stalemate, rule=rule))


def end_turn(b: Batch, player: str, rule: str, stalled: bool) -> None:
    """A turn ends: stalemate, the 8+8 responder's series, or the next shooter."""
    g = b.state.game
    side = side_of(b.state, player)
    stalemate = g.stalemate + 1 if stalled else 0
    if stalemate >= STALEMATE_TURNS:
        annul(b, "stalemate", b.cite("stalemate"))
        return
    opp = other(side)
    if opp in g.cleared_first and player not in g.played and b.pucks(opp).on_board == 0:
        win(b, opp, "first_series", b.cite("sixteen" if b.pairs else "eight_eight"))
        return
    pass_turn(b, player, rule, stalemate)


def cleared(b: Batch, player: str, side: str, turn_lost: bool) -> None:
    """The shooter's side has no pucks left and owes none: won, or the 8+8 / 16+16 rules."""
    g = b.state.game
    opp = other(side)
    first = player not in g.played
    key = "sixteen" if b.pairs else "eight_eight"
    opp_played = any(side_of(b.state, p) == opp for p in g.played)
    if first and player == g.opener and not opp_played:
        b.emit(ev.SeriesStopped(player=player, turn_lost=turn_lost, rule=b.cite(key)))
        pass_turn(b, player, b.cite(key))
        return
    if first and opp in g.cleared_first and b.pucks(opp).on_board == 0:
        losers = [s for s in (opp, side) if s in g.cleared_turn_loss or (s == side and turn_lost)]
        if len(losers) == 1:
            lose(b, losers[0], "eight_eight_turn_loss", b.cite("eight_eight_turn_loss"))
            return
        annul(b, "eight_eight", b.cite(key), swap=True, opener=player)
        return
    win(b, side, "cleared", b.cite("win"))
