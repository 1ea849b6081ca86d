"""A play as a recorder enters it: one checker at a time (rules of play, KSI 1.2.1).

`legal_plays` tells legal plays apart by the position they leave; a recorder taps single-die
moves in any order. `move_orders` lists every order of single-die moves that ends in one of
those positions, so a face can highlight the legal next steps of a partial play without
generating moves itself. An order shorter than the full play appears only where bearing off
with a larger die leaves the very position a full play leaves (the engine records that play as
legal: plays are told apart by position). Pure, like the rest of the engine.
"""

from __future__ import annotations

from functools import lru_cache

from tableside.disciplines.backgammon.board import Play, Side, legal_plays, move
from tableside.disciplines.backgammon.board import _single as singles


def _orders(me: Side, opp: Side, dice: tuple[int, ...], done: Play, out: set, ends: set) -> None:
    """Depth first over the dice left; a sequence counts when it reaches a legal end."""
    if (me, opp) in ends and done:
        out.add(done)
    for i, die in enumerate(dice):
        if i and die == dice[0]:
            continue
        rest = dice[:i] + dice[i + 1 :]
        for frm, to in singles(me, opp, die):
            m, o, _ = move(me, opp, frm, to)
            _orders(m, o, rest, (*done, (frm, to)), out, ends)


@lru_cache(maxsize=1024)  # pure: the same position and dice give the same orders
def move_orders(me: Side, opp: Side, dice: tuple[int, int]) -> tuple[Play, ...]:
    """Every order of single moves that makes a legal play (sorted); () when none can move."""
    ends = set(legal_plays(me, opp, dice))
    if (me, opp) in ends:
        return ()  # no legal move: the position stands
    d1, d2 = dice
    seq = (d1,) * 4 if d1 == d2 else (d1, d2)
    out: set[Play] = set()
    _orders(me, opp, seq, (), out, ends)
    return tuple(sorted(out))
