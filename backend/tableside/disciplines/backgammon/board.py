"""The position and the legal plays (rules of play, KSI 1.2.1; bar first, KSI 4.2.1).

A side's checkers are a tuple of 26 counts in that side's own numbering: index 0 is borne off,
1..24 the points (the side moves from 24 down to 1), 25 the bar. The opponent's point p is the
mover's point 25 - p. A move is (from, to) with from 25 for the bar and to 0 for off; a play is
the tuple of single-die moves of one turn. Legal plays are told apart by the position they leave
(as GNU Backgammon counts them).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from types import MappingProxyType

from tableside.disciplines.backgammon import cite as k
from tableside.disciplines.backgammon.errors import RuleViolation

Side = tuple[int, ...]
Move = tuple[int, int]
Play = tuple[Move, ...]
Position = tuple[Side, Side]  # (mover, opponent) wherever a function takes "me, opp"

BAR, OFF = 25, 0


def standard_side() -> Side:
    """The starting set-up: 2 on the 24, 5 on the 13, 3 on the 8, 5 on the 6."""
    s = [0] * 26
    s[24], s[13], s[8], s[6] = 2, 5, 3, 5
    return tuple(s)


STANDARD: Side = standard_side()


def pips(side: Side) -> int:
    """The pip count: checkers on the bar count 25."""
    return sum(p * n for p, n in enumerate(side))


def checkers(side: Side) -> int:
    return sum(side)


def all_home(me: Side) -> bool:
    """Every checker in the home board or off: bearing off is allowed."""
    return not any(me[7:])


def _single(me: Side, opp: Side, die: int) -> list[Move]:
    """The legal single moves with one die."""
    if me[BAR]:
        to = BAR - die
        return [(BAR, to)] if opp[BAR - to] < 2 else []
    moves: list[Move] = []
    home = all_home(me)
    for p in range(24, 0, -1):
        if not me[p]:
            continue
        to = p - die
        if to >= 1:
            if opp[25 - to] < 2:
                moves.append((p, to))
        elif home and (to == 0 or not any(me[p + 1 : 7])):
            moves.append((p, OFF))
    return moves


def move(me: Side, opp: Side, frm: int, to: int) -> tuple[Side, Side, bool]:
    """Move one checker (no legality check); a lone opponent checker there goes to the bar."""
    m, o = list(me), list(opp)
    m[frm] -= 1
    m[to] += 1
    hit = 1 <= to <= 24 and o[25 - to] == 1
    if hit:
        o[25 - to] = 0
        o[BAR] += 1
    return tuple(m), tuple(o), hit


def _walk(me: Side, opp: Side, dice: tuple[int, ...], done: Play, walk: dict) -> None:
    """Depth-first over the dice left; walk["out"] maps (position, dice left) to a play."""
    key = (me, opp, dice)
    if key in walk["seen"]:
        return
    walk["seen"].add(key)
    extended = False
    for i, die in enumerate(dice):
        if i and die == dice[0]:
            continue  # doubles: the order does not matter
        rest = dice[:i] + dice[i + 1 :]
        for frm, to in _single(me, opp, die):
            m, o, _ = move(me, opp, frm, to)
            extended = True
            _walk(m, o, rest, (*done, (frm, to)), walk)
    if not extended:
        walk["best"] = max(walk["best"], len(done))
        walk["out"].setdefault(key, done)


@lru_cache(maxsize=4096)  # pure: the same position and dice give the same plays
def legal_plays(me: Side, opp: Side, dice: tuple[int, int]) -> Mapping[Position, Play]:
    """Every legal resulting position with one play reaching it (the maximum-dice rule applied).

    Both dice when possible; when only one can be played, the larger if it can be; doubles are
    four moves. No legal move: the one "play" is the empty one (the position stands).
    """
    d1, d2 = dice
    seq = (d1,) * 4 if d1 == d2 else tuple(sorted(dice, reverse=True))
    walk: dict = {"seen": set(), "out": {}, "best": 0}
    _walk(me, opp, seq, (), walk)
    best = walk["best"]
    found = [(k, p) for k, p in walk["out"].items() if len(p) == best]
    if best == 1 and d1 != d2:
        larger = [(k, p) for k, p in found if k[2] == (min(dice),)]  # the larger die was used
        found = larger or found
    plays: dict[Position, Play] = {}
    for (m, o, _), p in found:
        plays.setdefault((m, o), p)
    return MappingProxyType(plays)


def apply_play(me: Side, opp: Side, play: Play) -> tuple[Side, Side]:
    """Carry out a reported play checker by checker, hitting lone checkers where it lands."""
    for frm, to in play:
        me, opp, _ = move(me, opp, frm, to)
    return me, opp


def check_physical(me: Side, opp: Side, play: Play) -> None:
    """Refuses a reported play that cannot even be made on this board (KSI 1.2.1)."""
    for frm, to in play:
        if not (1 <= frm <= 25 and 0 <= to <= 24 and to < frm):
            why, figures = f"{frm}/{to} does not move a checker forward", {"from": frm, "to": to}
            raise RuleViolation(k.PLAY, why, "moves", code="bg_move_backwards", params=figures)
        if not me[frm]:
            why = f"no checker on {frm}"
            raise RuleViolation(k.PLAY, why, "moves", code="bg_no_checker", params={"point": frm})
        if to and opp[25 - to] >= 2:
            why = f"{to} is held by the opponent"
            raise RuleViolation(k.PLAY, why, "moves", code="bg_point_held", params={"point": to})
        me, opp, _ = move(me, opp, frm, to)


def contact(me: Side, opp: Side) -> bool:
    """Can a checker still be hit? (KSI 4.5: no concession while it can.)"""
    my_back = max((p for p in range(1, 26) if me[p]), default=0)
    their_back = max((p for p in range(1, 26) if opp[p]), default=0)
    return my_back > 25 - their_back if their_back else False


def loss_kind(loser: Side) -> int:
    """1 single, 2 gammon (none borne off), 3 backgammon (also one on the bar or in the winner's
    home board, which is the loser's 19..24)."""
    if loser[OFF]:
        return 1
    return 3 if any(loser[19:26]) else 2


def borne_off_all(side: Side) -> bool:
    return not any(side[1:])
