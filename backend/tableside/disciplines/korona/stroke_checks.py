"""Checks before a stroke is decided: the turn (EKML §23(1)8) and the judge's counts."""

from __future__ import annotations

from tableside.disciplines.korona import events as ev
from tableside.disciplines.korona.batch import Batch
from tableside.disciplines.korona.commands import StrokeFacts
from tableside.disciplines.korona.errors import RuleViolation
from tableside.disciplines.korona.game_end import game_in_play
from tableside.disciplines.korona.state import side_of
from tableside.disciplines.korona.stroke import Verdict
from tableside.disciplines.korona.vocabulary import other

COUNTS = (
    "own_pocketed",
    "opponent_pocketed",
    "own_over",
    "opponent_over",
    "own_locked_out",
    "own_locked_out_pocketed",
    "locked_hit_moved",
    "opponent_locked_out",
    "opponent_into_centre",
    "opponent_into_zone",
)


def check_turn(b: Batch, player: str) -> str:
    """The player may shoot: a game is in play and he has the turn (EKML §23(1)8)."""
    if not game_in_play(b):
        raise RuleViolation(
            b.cite("no_turn"), "no game is in play", "player", code="no_game_in_play"
        )
    side = b.side(player)
    turn = b.state.game.turn
    if turn != player:
        why = f"{player} does not have the turn ({turn} has); report shot_without_right"
        raise RuleViolation(b.cite("no_turn"), why, "player", code="not_their_turn")
    return side


# The counts' refusals: code → the English words (the faces' words: codes.<lang>.json).
_WHY = {
    "counts_negative": "counts are never negative",
    "more_own_than_on_board": "more own pucks pocketed than on the board",
    "more_opponent_than_on_board": "more opponent pucks pocketed than on the board",
    "more_pocketed_than_knocked_out": "more pocketed than knocked out",
    "rows_moved_not_in_match": "a player not in this match",
}


def _refuse(rule: str, code: str, field: str) -> None:
    raise RuleViolation(rule, _WHY[code], f"facts.{field}", code=code)


def validate(b: Batch, side: str, f: StrokeFacts) -> None:
    """The judge's counts fit the board."""
    for name in COUNTS:
        if getattr(f, name) < 0:
            _refuse(b.cite("legal"), "counts_negative", name)
    if f.own_pocketed > b.pucks(side).on_board:
        _refuse(b.cite("win"), "more_own_than_on_board", "own_pocketed")
    if f.opponent_pocketed > b.pucks(other(side)).on_board:
        _refuse(b.cite("win"), "more_opponent_than_on_board", "opponent_pocketed")
    if f.own_locked_out_pocketed > min(f.own_locked_out, f.own_pocketed):
        rule = b.cite("own_locked_restored")
        _refuse(rule, "more_pocketed_than_knocked_out", "own_locked_out_pocketed")
    if any(side_of(b.state, p) is None for p in f.rows_moved):
        _refuse(b.cite("pairs_debt"), "rows_moved_not_in_match", "rows_moved")


def rows_moved(b: Batch, player: str, f: StrokeFacts, v: Verdict) -> None:
    """Pairs: note whose opposite start row has left the start position (EKML §28(6))."""
    if not b.pairs:
        return
    moved = set(f.rows_moved)
    if f.kind == "direct" and f.first_contact == "own_open" and not v.contact_fouls:
        moved.add(player)  # a correct first stroke hits the shooter's own start row
    for p in sorted(moved - set(b.state.game.rows_moved)):
        b.emit(ev.RowMoved(player=p, rule=b.cite("pairs_debt")))
