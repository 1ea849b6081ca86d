"""Ending a game: won, lost, annulled and replayed (EKML §23, §27(3)-(6), §28(7))."""

from __future__ import annotations

from tableside.disciplines.korona import events as ev
from tableside.disciplines.korona.batch import Batch
from tableside.disciplines.korona.match import after_game, replay
from tableside.disciplines.korona.vocabulary import other


def win(b: Batch, side: str, reason: str, rule: str) -> None:
    """The game goes to `side`; then the match goes on or ends."""
    b.emit(ev.GameEnded(game_no=b.state.game.game_no, winner=side, reason=reason, rule=rule))
    after_game(b)


def lose(b: Batch, side: str, reason: str, rule: str) -> None:
    """`side` loses the game."""
    win(b, other(side), reason, rule)


def annul(b: Batch, reason: str, rule: str, swap: bool = False, opener: str = "") -> None:
    """The game is annulled and replayed (last pucks together, 8+8, stalemate)."""
    b.emit(ev.GameAnnulled(game_no=b.state.game.game_no, reason=reason, swap=swap, rule=rule))
    replay(b, rule, swap, opener)


def game_in_play(b: Batch) -> bool:
    """A game is set up and not over, in a match that has not ended."""
    g = b.state.game
    return g.set_up and not g.over and not b.state.ended
